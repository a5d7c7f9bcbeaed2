-- The firm portal: people (users), their roles in firms (memberships), portal sessions, sign-in
-- links, passkeys and the WebAuthn challenges in flight. Every secret is stored as an HMAC.

CREATE TABLE users (
  id text PRIMARY KEY,
  email text NOT NULL,
  name text,
  created_at timestamptz NOT NULL,
  last_sign_in_at timestamptz
);
CREATE UNIQUE INDEX users_email_key ON users (email);

CREATE TABLE memberships (
  account_id text NOT NULL REFERENCES accounts (id),
  user_id text NOT NULL REFERENCES users (id),
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  invited_by text,
  created_at timestamptz NOT NULL,
  PRIMARY KEY (account_id, user_id)
);
CREATE INDEX memberships_user_idx ON memberships (user_id);

CREATE TABLE portal_sessions (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  account_id text NOT NULL REFERENCES accounts (id),
  token_hmac text NOT NULL,
  method text NOT NULL CHECK (method IN ('magic_link', 'passkey')),
  user_agent text,
  created_at timestamptz NOT NULL,
  last_seen_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  revoked_at timestamptz
);
CREATE UNIQUE INDEX portal_sessions_token_key ON portal_sessions (token_hmac);
CREATE INDEX portal_sessions_user_idx ON portal_sessions (user_id);

CREATE TABLE magic_links (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  account_id text REFERENCES accounts (id),
  token_hmac text NOT NULL,
  purpose text NOT NULL CHECK (purpose IN ('sign_in', 'invite')),
  next_path text,
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE UNIQUE INDEX magic_links_token_key ON magic_links (token_hmac);

CREATE TABLE passkeys (
  id text PRIMARY KEY,
  user_id text NOT NULL REFERENCES users (id),
  credential_id text NOT NULL,
  public_key text NOT NULL,
  counter bigint NOT NULL,
  transports jsonb NOT NULL DEFAULT '[]',
  name text NOT NULL,
  created_at timestamptz NOT NULL,
  last_used_at timestamptz
);
CREATE UNIQUE INDEX passkeys_credential_key ON passkeys (credential_id);
CREATE INDEX passkeys_user_idx ON passkeys (user_id);

CREATE TABLE webauthn_challenges (
  id text PRIMARY KEY,
  challenge text NOT NULL,
  user_id text REFERENCES users (id),
  purpose text NOT NULL CHECK (purpose IN ('register', 'authenticate')),
  expires_at timestamptz NOT NULL,
  used_at timestamptz,
  created_at timestamptz NOT NULL
);

-- Who created an API key in the portal (null for keys from the CLI or the admin API).
ALTER TABLE api_keys ADD COLUMN created_by text REFERENCES users (id);
