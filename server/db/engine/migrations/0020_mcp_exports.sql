CREATE TABLE "mcp_exports" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"actor" text NOT NULL,
	"kind" text NOT NULL,
	"mime_type" text NOT NULL,
	"content" text NOT NULL,
	"encoding" text NOT NULL,
	"rows" integer,
	"bytes" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "mcp_exports_encoding_check" CHECK (encoding IN ('utf8', 'base64'))
);

ALTER TABLE "mcp_exports" ADD CONSTRAINT "mcp_exports_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE cascade ON UPDATE no action;
CREATE INDEX "mcp_exports_expires_idx" ON "mcp_exports" USING btree ("expires_at");