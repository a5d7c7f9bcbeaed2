-- Issue 40: the name and e-mail search indexes carry what the capped count reads (the name, the
-- snapshot time, test, held, status), so a common prefix is counted by an index-only scan. Indexes
-- only: no table rewrite.
DROP INDEX "leads_name_prefix_idx";
DROP INDEX "leads_email_prefix_idx";
CREATE INDEX "leads_name_search_idx" ON "leads" USING btree ("account_id",lower("name") text_pattern_ops,"name","created_at","test","quarantined_at","status");
CREATE INDEX "leads_email_search_idx" ON "leads" USING btree ("account_id",lower("email") text_pattern_ops,"email","name","created_at","test","quarantined_at","status");