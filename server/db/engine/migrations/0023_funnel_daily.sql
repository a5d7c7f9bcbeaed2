CREATE TABLE "funnel_daily" (
	"account_id" text NOT NULL,
	"license_id" text NOT NULL,
	"calculator" text NOT NULL,
	"page" text NOT NULL,
	"language" text NOT NULL,
	"day" date NOT NULL,
	"test" boolean NOT NULL,
	"views" integer DEFAULT 0 NOT NULL,
	"calculations" integer DEFAULT 0 NOT NULL,
	"leads" integer DEFAULT 0 NOT NULL,
	"held_leads" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "funnel_daily_pkey" PRIMARY KEY("license_id","day","calculator","page","language","test")
);

CREATE INDEX "funnel_daily_account_idx" ON "funnel_daily" USING btree ("account_id","day");