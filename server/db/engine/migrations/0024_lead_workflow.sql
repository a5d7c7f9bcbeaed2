-- Issue 40: leads a person can work. Nullable columns, new indexes and a new table only (no table
-- rewrite): the lost status and its reason, the value and priority a lead is rated with at store
-- time (the recompute job rates older leads), prefix search on name and e-mail, notes, and a
-- firm's retention window for leads not converted (null: off).
CREATE TABLE "lead_notes" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"lead_id" text NOT NULL,
	"author" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);

ALTER TABLE "leads" DROP CONSTRAINT "leads_status_check";
ALTER TABLE "accounts" ADD COLUMN "lead_retention_months" integer;
ALTER TABLE "leads" ADD COLUMN "lost_reason" text;
ALTER TABLE "leads" ADD COLUMN "value_amount" double precision;
ALTER TABLE "leads" ADD COLUMN "priority_rank" smallint;
ALTER TABLE "leads" ADD COLUMN "priority_reasons" jsonb;
ALTER TABLE "leads" ADD COLUMN "priority_version" text;
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;
ALTER TABLE "lead_notes" ADD CONSTRAINT "lead_notes_lead_id_fkey" FOREIGN KEY ("lead_id") REFERENCES "public"."leads"("id") ON DELETE cascade ON UPDATE no action;
CREATE INDEX "lead_notes_lead_idx" ON "lead_notes" USING btree ("account_id","lead_id","created_at");
CREATE INDEX "leads_live_value_idx" ON "leads" USING btree ("account_id",(coalesce("value_amount", -1)) DESC,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE test = false AND quarantined_at IS NULL;
CREATE INDEX "leads_live_priority_idx" ON "leads" USING btree ("account_id",(coalesce("priority_rank", 0)) DESC,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE test = false AND quarantined_at IS NULL;
CREATE INDEX "leads_name_prefix_idx" ON "leads" USING btree ("account_id",lower("name") text_pattern_ops);
CREATE INDEX "leads_email_prefix_idx" ON "leads" USING btree ("account_id",lower("email") text_pattern_ops);
CREATE INDEX "leads_priority_version_idx" ON "leads" USING btree ("calculator","priority_version");
ALTER TABLE "accounts" ADD CONSTRAINT "accounts_lead_retention_months_check" CHECK ("accounts"."lead_retention_months" IS NULL OR "accounts"."lead_retention_months" BETWEEN 3 AND 84);
ALTER TABLE "leads" ADD CONSTRAINT "leads_lost_reason_check" CHECK (lost_reason IN ('went_elsewhere', 'not_a_fit', 'no_answer', 'other'));
ALTER TABLE "leads" ADD CONSTRAINT "leads_status_check" CHECK (status IN ('new', 'contacted', 'converted', 'lost'));