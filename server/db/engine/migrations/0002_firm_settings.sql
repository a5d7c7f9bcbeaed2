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

-- Test mode and quarantine (trust model): data from development hosts is flagged and left out of
-- lead lists, exports, MCP and statistics unless asked; leads over a plan's daily quota are kept
-- but quarantined. A result remembers the embed session that computed it (PDF capability).
ALTER TABLE leads ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE leads ADD COLUMN quarantined_at timestamptz;
ALTER TABLE calculation_results ADD COLUMN test boolean NOT NULL DEFAULT false;
ALTER TABLE calculation_results ADD COLUMN embed_session_id text;
