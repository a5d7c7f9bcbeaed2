ALTER TABLE "webhook_endpoints" ADD COLUMN "kind" text DEFAULT 'webhook' NOT NULL;
ALTER TABLE "webhook_endpoints" ADD COLUMN "destination_config" jsonb;
ALTER TABLE "webhook_endpoints" ADD COLUMN "paused_until" timestamp with time zone;