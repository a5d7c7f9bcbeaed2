-- Firm settings shared by the open issues: brand accent and lead-alert addresses on the account,
-- and the consent texts a firm has shown, one row per version (a lead names the version it saw).

ALTER TABLE accounts ADD COLUMN accent_color text;
ALTER TABLE accounts ADD COLUMN alert_emails jsonb NOT NULL DEFAULT '[]';

CREATE TABLE consent_versions (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  version integer NOT NULL CHECK (version >= 1),
  text text NOT NULL,
  text_sha256 text NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX consent_versions_account_version_key ON consent_versions (account_id, version);

ALTER TABLE leads ADD COLUMN consent_version_id text REFERENCES consent_versions (id);
