-- License lifecycle and billing sync. A license remembers the Stripe subscription that pays for it
-- and what Stripe last said about renewal (renews_at) or cancellation (cancel_at); the dates that
-- decide the status stay trial_ends_at and paid_through. Each Stripe event id is recorded once, in
-- the transaction that applied it, so a replayed delivery changes nothing.

ALTER TABLE licenses ADD COLUMN stripe_subscription_id text;
ALTER TABLE licenses ADD COLUMN renews_at timestamptz;
ALTER TABLE licenses ADD COLUMN cancel_at timestamptz;
CREATE INDEX licenses_stripe_subscription_idx ON licenses (stripe_subscription_id);

CREATE TABLE stripe_events (
  id text PRIMARY KEY,
  type text NOT NULL,
  license_id text,
  outcome text NOT NULL,
  received_at timestamptz NOT NULL
);
