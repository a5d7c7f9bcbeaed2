-- The delivery inspector (issue 24): per attempt, the request as sent and the response as received,
-- so a firm can debug its receiver. Headers are stored with credentials and cookies redacted
-- (Authorization, Cookie, Set-Cookie, the signature, anything token-like); the request body is
-- redacted and capped at 4 KB like the response excerpt. The rows belong to their delivery, which
-- belongs to its outbox event: deleting a lead (privacy) or the delivery-log retention deletes them.
ALTER TABLE delivery_attempts ADD COLUMN request_headers jsonb;
ALTER TABLE delivery_attempts ADD COLUMN request_body text;
ALTER TABLE delivery_attempts ADD COLUMN request_body_truncated boolean NOT NULL DEFAULT false;
ALTER TABLE delivery_attempts ADD COLUMN response_headers jsonb;
ALTER TABLE delivery_attempts ADD COLUMN response_truncated boolean NOT NULL DEFAULT false;
