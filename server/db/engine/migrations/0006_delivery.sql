-- Lead delivery (issue 11): webhook endpoints, the transactional outbox, webhook deliveries and
-- their attempts, alert mails, and account closures. Times come from the application's clock.

-- The signing secret must be recoverable to sign, so it cannot be hashed: it is encrypted at rest
-- with the instance secret key (AES-256-GCM, like the signing keys). The previous secret stays
-- valid until previous_secret_expires_at so receivers can roll without dropping deliveries.
CREATE TABLE webhook_endpoints (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  url text NOT NULL,
  events jsonb NOT NULL,
  description text,
  include_test boolean NOT NULL DEFAULT false,
  secret_enc text NOT NULL,
  previous_secret_enc text,
  previous_secret_expires_at timestamptz,
  disabled_at timestamptz,
  disabled_reason text,
  failing_since timestamptz,
  created_at timestamptz NOT NULL,
  updated_at timestamptz NOT NULL
);
CREATE INDEX webhook_endpoints_account_idx ON webhook_endpoints (account_id);

-- One row per event that someone consumes (an endpoint or an alert mail), written in the same
-- transaction as the lead or result it describes. lead_id/result_id let deletion and export find
-- every copy of a person's data.
CREATE TABLE outbox_events (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  type text NOT NULL,
  payload jsonb NOT NULL,
  test boolean NOT NULL DEFAULT false,
  lead_id text,
  result_id text,
  created_at timestamptz NOT NULL
);
CREATE INDEX outbox_events_account_idx ON outbox_events (account_id, created_at);
CREATE INDEX outbox_events_lead_idx ON outbox_events (lead_id);
CREATE INDEX outbox_events_result_idx ON outbox_events (result_id);

CREATE TABLE webhook_deliveries (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  endpoint_id text NOT NULL REFERENCES webhook_endpoints (id) ON DELETE CASCADE,
  event_id text NOT NULL REFERENCES outbox_events (id) ON DELETE CASCADE,
  status text NOT NULL CHECK (status IN ('pending', 'succeeded', 'failed', 'cancelled')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  last_attempt_at timestamptz,
  completed_at timestamptz,
  created_at timestamptz NOT NULL
);
CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending';
CREATE INDEX webhook_deliveries_endpoint_idx ON webhook_deliveries (endpoint_id, created_at);
CREATE INDEX webhook_deliveries_event_idx ON webhook_deliveries (event_id);

CREATE TABLE delivery_attempts (
  id text PRIMARY KEY,
  delivery_id text NOT NULL REFERENCES webhook_deliveries (id) ON DELETE CASCADE,
  attempt integer NOT NULL,
  started_at timestamptz NOT NULL,
  duration_ms integer NOT NULL,
  status_code integer,
  error text,
  response_excerpt text,
  created_at timestamptz NOT NULL
);
CREATE INDEX delivery_attempts_delivery_idx ON delivery_attempts (delivery_id, attempt);

-- Alert mails leave from the same outbox: the row is written with the lead, a worker sends it.
CREATE TABLE mail_messages (
  id text PRIMARY KEY,
  account_id text NOT NULL REFERENCES accounts (id),
  kind text NOT NULL,
  event_id text REFERENCES outbox_events (id) ON DELETE CASCADE,
  lead_id text,
  recipients jsonb NOT NULL,
  subject text,
  body jsonb,
  status text NOT NULL CHECK (status IN ('pending', 'sent', 'failed')),
  attempts integer NOT NULL DEFAULT 0,
  next_attempt_at timestamptz NOT NULL,
  locked_until timestamptz,
  sent_at timestamptz,
  file_path text,
  last_error text,
  created_at timestamptz NOT NULL
);
CREATE INDEX mail_messages_due_idx ON mail_messages (next_attempt_at) WHERE status = 'pending';
CREATE INDEX mail_messages_lead_idx ON mail_messages (lead_id);

-- `account close`: licenses, keys and endpoints stop at once; the data goes at delete_after.
CREATE TABLE account_closures (
  account_id text PRIMARY KEY,
  requested_at timestamptz NOT NULL,
  delete_after timestamptz NOT NULL,
  actor text NOT NULL
);
