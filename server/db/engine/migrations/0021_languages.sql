ALTER TABLE "calculation_results" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;
ALTER TABLE "consent_versions" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;
ALTER TABLE "leads" ADD COLUMN "language" text DEFAULT 'en' NOT NULL;
ALTER TABLE "leads" ADD COLUMN "consent_language" text DEFAULT 'en' NOT NULL;