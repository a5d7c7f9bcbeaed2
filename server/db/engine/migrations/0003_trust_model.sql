-- Trust model (two keys per license). A license holds a secret key (HMAC at rest, for site
-- activation) and a publishable key (public, stored as is, for embed sessions). Rolling a key adds
-- a row and gives the old one an end (`expires_at`) so both work during the overlap.
-- Publishable keys for licenses that exist before this migration are created at start-up in
-- TypeScript (they carry a checksum); their secret keys are copied here.

CREATE TABLE license_keys (
  id text PRIMARY KEY,
  license_id text NOT NULL REFERENCES licenses (id),
  kind text NOT NULL CHECK (kind IN ('secret', 'publishable')),
  key_value text,
  key_hmac text,
  key_last4 text NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz,
  CHECK ((kind = 'secret') = (key_hmac IS NOT NULL AND key_value IS NULL))
);
CREATE UNIQUE INDEX license_keys_value_key ON license_keys (key_value) WHERE key_value IS NOT NULL;
CREATE UNIQUE INDEX license_keys_hmac_key ON license_keys (key_hmac) WHERE key_hmac IS NOT NULL;
CREATE INDEX license_keys_license_idx ON license_keys (license_id, kind);

INSERT INTO license_keys (id, license_id, kind, key_value, key_hmac, key_last4, created_at, expires_at)
SELECT 'lkey_' || substr(md5(id), 1, 26), id, 'secret', NULL, key_hmac, key_last4, created_at, NULL
FROM licenses;

-- Licenses made before publishable keys existed may keep using their secret key in pages (embed
-- sessions only, with a deprecation warning) until that key is rolled. New licenses may not.
ALTER TABLE licenses ADD COLUMN legacy_secret_embed boolean NOT NULL DEFAULT false;
UPDATE licenses SET legacy_secret_embed = true;
