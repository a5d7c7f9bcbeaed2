ALTER TABLE "calculation_results" ADD COLUMN "note_codes" jsonb;
ALTER TABLE "calculation_results" ADD COLUMN "disclaimer_code" text;