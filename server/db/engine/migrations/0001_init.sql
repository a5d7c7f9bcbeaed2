-- svc schema v1 (DESIGN.md §3). Identical on PGlite and PostgreSQL; no schema-qualified names.
-- Times are written by the application's clock; there are no now() defaults on purpose.

CREATE TABLE accounts (
  id text PRIMARY KEY,
  name text NOT NULL,
  email text,
  stripe_customer_id text,
  created_at timestamptz NOT NULL
);

CREATE TABLE licenses (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  key_hmac text NOT NULL,
  key_last4 text NOT NULL,
  plan text NOT NULL,
  seats integer NOT NULL CHECK (seats >= 0),
  allowed_domains jsonb NOT NULL,
  trial_ends_at timestamptz,
  paid_through timestamptz,
  revoked_at timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX licenses_key_hmac_key ON licenses (key_hmac);
CREATE INDEX licenses_account_idx ON licenses (account_id);

CREATE TABLE activations (
  id text PRIMARY KEY,
  license_id text NOT NULL REFERENCES licenses (id),
  domain text NOT NULL,
  env text NOT NULL CHECK (env IN ('prod', 'dev')),
  first_seen_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  released_at timestamptz
);
CREATE UNIQUE INDEX activations_live_key ON activations (license_id, domain) WHERE released_at IS NULL;

CREATE TABLE refresh_tokens (
  id text PRIMARY KEY,
  family_id text NOT NULL,
  activation_id text NOT NULL REFERENCES activations (id),
  license_id text NOT NULL REFERENCES licenses (id),
  domain text NOT NULL,
  scope text NOT NULL,
  token_hmac text NOT NULL,
  parent_id text,
  replaced_by_id text,
  used_at timestamptz,
  revoked_at timestamptz,
  expires_at timestamptz NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX refresh_tokens_hmac_key ON refresh_tokens (token_hmac);
CREATE INDEX refresh_tokens_family_idx ON refresh_tokens (family_id);
CREATE INDEX refresh_tokens_activation_idx ON refresh_tokens (activation_id);

CREATE TABLE auth_codes (
  id text PRIMARY KEY,
  code_hmac text NOT NULL,
  license_id text NOT NULL REFERENCES licenses (id),
  client_id text,
  redirect_uri text NOT NULL,
  code_challenge text NOT NULL,
  code_challenge_method text NOT NULL CHECK (code_challenge_method = 'S256'),
  domain text NOT NULL,
  scope text NOT NULL,
  family_id text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX auth_codes_hmac_key ON auth_codes (code_hmac);

CREATE TABLE api_keys (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  name text NOT NULL,
  key_hmac text NOT NULL,
  key_last4 text NOT NULL,
  scopes text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz,
  revoked_at timestamptz,
  expires_at timestamptz
);
CREATE UNIQUE INDEX api_keys_hmac_key ON api_keys (key_hmac);
CREATE INDEX api_keys_account_idx ON api_keys (account_id);

CREATE TABLE signing_keys (
  kid text PRIMARY KEY,
  alg text NOT NULL,
  public_jwk jsonb NOT NULL,
  private_key_enc text NOT NULL,
  status text NOT NULL CHECK (status IN ('next', 'active', 'retired')),
  created_at timestamptz NOT NULL,
  activated_at timestamptz,
  retire_after timestamptz
);

CREATE TABLE secrets (
  name text PRIMARY KEY,
  value_enc text NOT NULL,
  created_at timestamptz NOT NULL
);

CREATE TABLE calculation_results (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  license_id text,
  calculator text NOT NULL,
  state text,
  inputs jsonb NOT NULL,
  outputs jsonb NOT NULL,
  line_items jsonb NOT NULL,
  notes jsonb NOT NULL,
  rule_set jsonb NOT NULL,
  disclaimer text NOT NULL,
  origin_domain text,
  created_at timestamptz NOT NULL
);
CREATE INDEX calculation_results_account_idx ON calculation_results (account_id, created_at);

CREATE TABLE leads (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  license_id text,
  calculator text NOT NULL,
  result_id text,
  name text NOT NULL,
  email text NOT NULL,
  phone text,
  state text,
  status text NOT NULL CHECK (status IN ('new', 'contacted', 'converted')),
  consent_text text NOT NULL,
  consented_at timestamptz NOT NULL,
  idempotency_key text,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX leads_account_idx ON leads (account_id, created_at);

CREATE TABLE idempotency_keys (
  account_id text NOT NULL,
  key text NOT NULL,
  request_hash text NOT NULL,
  response_status integer NOT NULL,
  response_body jsonb NOT NULL,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, key)
);

CREATE TABLE audit_events (
  id text PRIMARY KEY,
  account_id text,
  actor text NOT NULL,
  action text NOT NULL,
  subject text,
  data jsonb NOT NULL,
  created_at timestamptz NOT NULL
);
CREATE INDEX audit_events_account_idx ON audit_events (account_id, created_at);
