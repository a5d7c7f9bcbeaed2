-- Issue 36: each rules-changelog entry recorded once by its stable id (the inserting process
-- announces it), and the rule changes each firm is told of in the portal until dismissed.
CREATE TABLE "rule_changes" (
	"id" text PRIMARY KEY NOT NULL,
	"change" jsonb NOT NULL,
	"recorded_at" timestamp with time zone NOT NULL,
	"firms_told" integer DEFAULT 0 NOT NULL
);

CREATE TABLE "rule_notices" (
	"account_id" text NOT NULL,
	"change_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"dismissed_at" timestamp with time zone,
	CONSTRAINT "rule_notices_pkey" PRIMARY KEY("account_id","change_id")
);

ALTER TABLE "rule_notices" ADD CONSTRAINT "rule_notices_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
ALTER TABLE "rule_notices" ADD CONSTRAINT "rule_notices_change_id_fkey" FOREIGN KEY ("change_id") REFERENCES "public"."rule_changes"("id") ON DELETE no action ON UPDATE no action;