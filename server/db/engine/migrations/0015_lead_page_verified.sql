-- Issue 39: a lead's page is kept only when it is on the embed session's origin. page_verified says
-- what happened: true (kept), false (a page elsewhere was reported and dropped), null (none was
-- reported, or the lead predates the check; those rows keep their page as it was reported).
ALTER TABLE "leads" ADD COLUMN "page_verified" boolean;