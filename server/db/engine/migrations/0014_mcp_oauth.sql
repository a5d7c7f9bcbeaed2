CREATE TABLE "mcp_auth_codes" (
	"id" text PRIMARY KEY NOT NULL,
	"code_hmac" text NOT NULL,
	"grant_id" text NOT NULL,
	"client_id" text NOT NULL,
	"redirect_uri" text NOT NULL,
	"code_challenge" text NOT NULL,
	"resource" text NOT NULL,
	"scopes" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);

CREATE TABLE "mcp_grants" (
	"id" text PRIMARY KEY NOT NULL,
	"account_id" text NOT NULL,
	"approver_user_id" text NOT NULL,
	"client_id" text NOT NULL,
	"client_kind" text NOT NULL,
	"client_name" text,
	"redirect_host" text NOT NULL,
	"scopes" text NOT NULL,
	"resource" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"last_used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"revoke_reason" text,
	CONSTRAINT "mcp_grants_client_kind_check" CHECK (client_kind IN ('dcr', 'metadata'))
);

CREATE TABLE "mcp_refresh_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"grant_id" text NOT NULL,
	"token_hmac" text NOT NULL,
	"scopes" text NOT NULL,
	"resource" text NOT NULL,
	"parent_id" text,
	"replaced_by_id" text,
	"used_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);

CREATE TABLE "oauth_clients" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text,
	"redirect_uris" jsonb NOT NULL,
	"token_endpoint_auth_method" text NOT NULL,
	"secret_hmac" text,
	"created_at" timestamp with time zone NOT NULL,
	"created_ip" text
);

ALTER TABLE "mcp_auth_codes" ADD CONSTRAINT "mcp_auth_codes_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "public"."mcp_grants"("id") ON DELETE no action ON UPDATE no action;
ALTER TABLE "mcp_grants" ADD CONSTRAINT "mcp_grants_account_id_fkey" FOREIGN KEY ("account_id") REFERENCES "public"."accounts"("id") ON DELETE no action ON UPDATE no action;
ALTER TABLE "mcp_grants" ADD CONSTRAINT "mcp_grants_approver_user_id_fkey" FOREIGN KEY ("approver_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;
ALTER TABLE "mcp_refresh_tokens" ADD CONSTRAINT "mcp_refresh_tokens_grant_id_fkey" FOREIGN KEY ("grant_id") REFERENCES "public"."mcp_grants"("id") ON DELETE no action ON UPDATE no action;
CREATE UNIQUE INDEX "mcp_auth_codes_hmac_key" ON "mcp_auth_codes" USING btree ("code_hmac");
CREATE INDEX "mcp_grants_account_idx" ON "mcp_grants" USING btree ("account_id","created_at");
CREATE INDEX "mcp_grants_approver_idx" ON "mcp_grants" USING btree ("approver_user_id");
CREATE UNIQUE INDEX "mcp_refresh_tokens_hmac_key" ON "mcp_refresh_tokens" USING btree ("token_hmac");
CREATE INDEX "mcp_refresh_tokens_grant_idx" ON "mcp_refresh_tokens" USING btree ("grant_id");