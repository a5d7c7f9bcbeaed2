-- Consent has one source (issue 20): the widget shows the firm's current consent version, the lead
-- names the version its visitor saw, and the server stores that version. A lead from an older
-- widget, which names none, is stored with the version current at the time and flagged here, so
-- the evidence says what it is: the version was assumed, not reported.
ALTER TABLE leads ADD COLUMN IF NOT EXISTS consent_assumed boolean NOT NULL DEFAULT false;

-- A new default consent for firms that never wrote their own (their current version is still the
-- old default with their name): it names contact by e-mail AND by phone, which the old one did
-- not. Firms with their own text keep it; firms with no version yet get the new default on first
-- use (server/domain/accounts/consent.ts). Leads keep pointing at the version they were given.
INSERT INTO consent_versions (id, account_id, version, text, text_sha256, created_at)
SELECT
  'cv_' || substr(replace(gen_random_uuid()::text, '-', ''), 1, 26),
  current.account_id,
  current.version + 1,
  fresh.text,
  encode(sha256(convert_to(fresh.text, 'UTF8')), 'hex'),
  now()
FROM (
  SELECT DISTINCT ON (account_id) account_id, version, text
  FROM consent_versions
  ORDER BY account_id, version DESC
) AS current
JOIN accounts ON accounts.id = current.account_id
CROSS JOIN LATERAL (
  SELECT replace(
    'I agree that {firm} may contact me by e-mail or by phone about my enquiry, and may keep the details I entered for that purpose.',
    '{firm}', accounts.name) AS text
) AS fresh
WHERE current.text = replace(
  'I agree that {firm} may contact me about my enquiry and store the details I entered for that purpose.',
  '{firm}', accounts.name);
