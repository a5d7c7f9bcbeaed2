import { sql } from 'drizzle-orm';
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';

/**
 * The tables of DESIGN.md §3. The SQL of record is server/db/migrations/*.sql; this file mirrors
 * it for typed queries. Every time is set by the application's clock, never by SQL `now()`.
 */
const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

export const accounts = pgTable('accounts', {
  id: text('id').primaryKey(),
  name: text('name').notNull(),
  email: text('email'),
  stripeCustomerId: text('stripe_customer_id'),
  createdAt: at('created_at').notNull(),
  accentColor: text('accent_color'),
  alertEmails: jsonb('alert_emails').$type<string[]>().notNull().default([]),
});

export const consentVersions = pgTable(
  'consent_versions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    version: integer('version').notNull(),
    text: text('text').notNull(),
    textSha256: text('text_sha256').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('consent_versions_account_version_key').on(t.accountId, t.version)],
);

export const licenses = pgTable(
  'licenses',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    keyHmac: text('key_hmac').notNull(),
    keyLast4: text('key_last4').notNull(),
    plan: text('plan').notNull(),
    seats: integer('seats').notNull(),
    allowedDomains: jsonb('allowed_domains').$type<string[]>().notNull(),
    trialEndsAt: at('trial_ends_at'),
    paidThrough: at('paid_through'),
    revokedAt: at('revoked_at'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
  },
  (t) => [uniqueIndex('licenses_key_hmac_key').on(t.keyHmac), index('licenses_account_idx').on(t.accountId)],
);

export const activations = pgTable(
  'activations',
  {
    id: text('id').primaryKey(),
    licenseId: text('license_id')
      .notNull()
      .references(() => licenses.id),
    domain: text('domain').notNull(),
    env: text('env').$type<'prod' | 'dev'>().notNull(),
    firstSeenAt: at('first_seen_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    releasedAt: at('released_at'),
  },
  (t) => [uniqueIndex('activations_live_key').on(t.licenseId, t.domain).where(sql`released_at is null`)],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    familyId: text('family_id').notNull(),
    activationId: text('activation_id')
      .notNull()
      .references(() => activations.id),
    licenseId: text('license_id')
      .notNull()
      .references(() => licenses.id),
    domain: text('domain').notNull(),
    scope: text('scope').notNull(),
    tokenHmac: text('token_hmac').notNull(),
    parentId: text('parent_id'),
    replacedById: text('replaced_by_id'),
    usedAt: at('used_at'),
    revokedAt: at('revoked_at'),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    uniqueIndex('refresh_tokens_hmac_key').on(t.tokenHmac),
    index('refresh_tokens_family_idx').on(t.familyId),
    index('refresh_tokens_activation_idx').on(t.activationId),
  ],
);

export const authCodes = pgTable(
  'auth_codes',
  {
    id: text('id').primaryKey(),
    codeHmac: text('code_hmac').notNull(),
    licenseId: text('license_id')
      .notNull()
      .references(() => licenses.id),
    clientId: text('client_id'),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    codeChallengeMethod: text('code_challenge_method').notNull(),
    domain: text('domain').notNull(),
    scope: text('scope').notNull(),
    familyId: text('family_id'),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('auth_codes_hmac_key').on(t.codeHmac)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    name: text('name').notNull(),
    keyHmac: text('key_hmac').notNull(),
    keyLast4: text('key_last4').notNull(),
    scopes: text('scopes').notNull(),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    expiresAt: at('expires_at'),
    createdBy: text('created_by').references(() => users.id),
  },
  (t) => [uniqueIndex('api_keys_hmac_key').on(t.keyHmac), index('api_keys_account_idx').on(t.accountId)],
);

export const signingKeys = pgTable('signing_keys', {
  kid: text('kid').primaryKey(),
  alg: text('alg').notNull(),
  publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
  privateKeyEnc: text('private_key_enc').notNull(),
  status: text('status').$type<'next' | 'active' | 'retired'>().notNull(),
  createdAt: at('created_at').notNull(),
  activatedAt: at('activated_at'),
  retireAfter: at('retire_after'),
});

export const secrets = pgTable('secrets', {
  name: text('name').primaryKey(),
  valueEnc: text('value_enc').notNull(),
  createdAt: at('created_at').notNull(),
});

export const calculationResults = pgTable(
  'calculation_results',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    licenseId: text('license_id'),
    calculator: text('calculator').notNull(),
    state: text('state'),
    inputs: jsonb('inputs').$type<Record<string, unknown>>().notNull(),
    outputs: jsonb('outputs').$type<Record<string, unknown>>().notNull(),
    lineItems: jsonb('line_items').$type<unknown[]>().notNull(),
    notes: jsonb('notes').$type<string[]>().notNull(),
    ruleSet: jsonb('rule_set').$type<Record<string, unknown>>().notNull(),
    disclaimer: text('disclaimer').notNull(),
    originDomain: text('origin_domain'),
    createdAt: at('created_at').notNull(),
    test: boolean('test').notNull().default(false),
    embedSessionId: text('embed_session_id'),
  },
  (t) => [index('calculation_results_account_idx').on(t.accountId, t.createdAt)],
);

export const leads = pgTable(
  'leads',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    licenseId: text('license_id'),
    calculator: text('calculator').notNull(),
    resultId: text('result_id'),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    state: text('state'),
    status: text('status').$type<'new' | 'contacted' | 'converted'>().notNull(),
    consentText: text('consent_text').notNull(),
    consentedAt: at('consented_at').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    consentVersionId: text('consent_version_id').references(() => consentVersions.id),
    test: boolean('test').notNull().default(false),
    quarantinedAt: at('quarantined_at'),
  },
  (t) => [index('leads_account_idx').on(t.accountId, t.createdAt)],
);

export const idempotencyKeys = pgTable(
  'idempotency_keys',
  {
    accountId: text('account_id').notNull(),
    key: text('key').notNull(),
    requestHash: text('request_hash').notNull(),
    responseStatus: integer('response_status').notNull(),
    responseBody: jsonb('response_body').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.key] })],
);

export const auditEvents = pgTable(
  'audit_events',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id'),
    actor: text('actor').notNull(),
    action: text('action').notNull(),
    subject: text('subject'),
    data: jsonb('data').$type<Record<string, unknown>>().notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [index('audit_events_account_idx').on(t.accountId, t.createdAt)],
);

export const users = pgTable(
  'users',
  {
    id: text('id').primaryKey(),
    email: text('email').notNull(),
    name: text('name'),
    createdAt: at('created_at').notNull(),
    lastSignInAt: at('last_sign_in_at'),
  },
  (t) => [uniqueIndex('users_email_key').on(t.email)],
);

export type MembershipRole = 'owner' | 'admin' | 'viewer';

export const memberships = pgTable(
  'memberships',
  {
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    role: text('role').$type<MembershipRole>().notNull(),
    invitedBy: text('invited_by'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [primaryKey({ columns: [t.accountId, t.userId] }), index('memberships_user_idx').on(t.userId)],
);

export const portalSessions = pgTable(
  'portal_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    tokenHmac: text('token_hmac').notNull(),
    method: text('method').$type<'magic_link' | 'passkey'>().notNull(),
    userAgent: text('user_agent'),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    uniqueIndex('portal_sessions_token_key').on(t.tokenHmac),
    index('portal_sessions_user_idx').on(t.userId),
  ],
);

export const magicLinks = pgTable(
  'magic_links',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    accountId: text('account_id').references(() => accounts.id),
    tokenHmac: text('token_hmac').notNull(),
    purpose: text('purpose').$type<'sign_in' | 'invite'>().notNull(),
    nextPath: text('next_path'),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [uniqueIndex('magic_links_token_key').on(t.tokenHmac)],
);

export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [uniqueIndex('passkeys_credential_key').on(t.credentialId), index('passkeys_user_idx').on(t.userId)],
);

export const webauthnChallenges = pgTable('webauthn_challenges', {
  id: text('id').primaryKey(),
  challenge: text('challenge').notNull(),
  userId: text('user_id').references(() => users.id),
  purpose: text('purpose').$type<'register' | 'authenticate'>().notNull(),
  expiresAt: at('expires_at').notNull(),
  usedAt: at('used_at'),
  createdAt: at('created_at').notNull(),
});
