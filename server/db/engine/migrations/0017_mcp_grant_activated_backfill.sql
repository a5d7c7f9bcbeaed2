-- Issue 39: a grant is a connected app only once its code was exchanged (mcp_grants.activated_at).
-- Grants from before the column: every successful exchange stored a refresh token (never deleted
-- but with the firm), so the earliest one is when the grant became active; an access token used on
-- its own (last_used_at) proves the same. A grant with neither was approved but its application
-- never came back: it stays pending, so Connected apps no longer lists it; it becomes active only
-- if its code is still exchanged within the code's 60 seconds.
UPDATE "mcp_grants" AS g
SET "activated_at" = COALESCE(
  (SELECT min(r."created_at") FROM "mcp_refresh_tokens" AS r WHERE r."grant_id" = g."id"),
  g."last_used_at"
)
WHERE g."activated_at" IS NULL;
