-- Issue 23. A firm's invitation is a pending offer until the invitee accepts it: no membership
-- exists before that. The token is stored as an HMAC; an invitation lives 72 hours. Counting
-- invitations per address and per firm over the last day is what limits them.
CREATE TABLE invitations (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  email text NOT NULL,
  role text NOT NULL CHECK (role IN ('owner', 'admin', 'viewer')),
  token_hmac text NOT NULL,
  invited_by text,
  created_at timestamptz NOT NULL,
  expires_at timestamptz NOT NULL,
  accepted_at timestamptz,
  declined_at timestamptz
);
CREATE UNIQUE INDEX invitations_token_key ON invitations (token_hmac);
CREATE INDEX invitations_email_idx ON invitations (email, created_at);
CREATE INDEX invitations_account_idx ON invitations (account_id, created_at);

-- Sign-in and invitation mails. `POST /v1/portal/auth/email` only adds a row here (the same work
-- for every address); the delivery worker resolves the address, mints the link and sends the
-- mail, then forgets the address. Rows also name the outbox file written without SMTP and when
-- its link expires, so retention can remove the file once the link is dead.
CREATE TABLE portal_mails (
  id text PRIMARY KEY,
  kind text NOT NULL CHECK (kind IN ('sign_in', 'invitation')),
  email text,
  next_path text,
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'skipped', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  locked_until timestamptz,
  file_path text,
  link_expires_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX portal_mails_pending_idx ON portal_mails (created_at) WHERE status = 'pending';
CREATE INDEX portal_mails_expiry_idx ON portal_mails (link_expires_at);
