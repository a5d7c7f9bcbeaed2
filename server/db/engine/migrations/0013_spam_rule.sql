-- Spam cannot silence a firm (issue 22). Quarantine is decided per source and by spam signals,
-- never by a license's daily total; past the plan's daily figure, further live leads are grouped
-- into a digest (one mail, one summary event) instead of alerted one by one.
--
-- source_net: the client's network as a rate key (IPv4 /24, IPv6 /64), never the full address:
-- enough to count leads per source, too coarse to name a person. Null for leads stored before.
-- quarantine_reasons: why a lead was held (network_burst, link_in_name, disposable_email).
-- digest_id: the digest that carried this lead's alert (null: alerted on its own, or quarantined).
ALTER TABLE leads ADD COLUMN source_net text;
ALTER TABLE leads ADD COLUMN quarantine_reasons jsonb NOT NULL DEFAULT '[]'::jsonb;
ALTER TABLE leads ADD COLUMN digest_id text;
CREATE INDEX leads_license_source_idx ON leads (license_id, source_net, created_at);

-- One digest per firm, kind and window: 'alerts' (leads past the daily figure, hourly windows) and
-- 'quarantine' (the daily list of held leads). The unique key makes concurrent leads share one.
CREATE TABLE lead_digests (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts(id),
  kind text NOT NULL,
  window_start timestamptz NOT NULL,
  send_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX lead_digests_window_idx ON lead_digests (account_id, kind, window_start);

-- Proof-of-work challenges already spent, per license, kept until the challenge expires.
CREATE TABLE spent_challenges (
  license_id text NOT NULL,
  challenge text NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (license_id, challenge)
);
CREATE INDEX spent_challenges_expiry_idx ON spent_challenges (expires_at);
