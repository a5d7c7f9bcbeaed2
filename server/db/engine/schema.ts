import { sql } from 'drizzle-orm';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  check,
  date,
  doublePrecision,
  foreignKey,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import type { FirmContact } from '../../contracts/firm-contact.ts';

/**
 * The tables of DESIGN.md §3, and the source of every new migration: change this file, then
 * `npm run db:generate -- --name=what_changed` writes the next `server/db/engine/migrations/NNNN_*.sql`
 * (and its snapshot under `migrations/meta/`); commit both. Migrations 0001–0013 were written by
 * hand before this and stay byte-identical; the baseline snapshot `meta/0013_snapshot.json`
 * describes the state they leave, so drizzle-kit diffs against it. What drizzle cannot say here
 * (triggers, functions, data fixes, anything beyond tables, columns, keys, checks and indexes) goes
 * in a custom migration: `npm run db:generate -- --custom --name=...`, then write its SQL by hand.
 * Constraints carry the names PostgreSQL gave them in 0001–0013, so a generated migration that
 * drops or changes one names the constraint the database really has. Every time is set by the
 * application's clock, never by SQL `now()`.
 */
const LIVE_LEAD = sql`test = false AND quarantined_at IS NULL`;

const at = (name: string) => timestamp(name, { withTimezone: true, mode: 'date' });

/** A foreign key under PostgreSQL's own name for it, `<table>_<column>_fkey`. */
function fk(table: string, column: AnyPgColumn, target: AnyPgColumn, onDelete?: 'cascade') {
  const key = foreignKey({
    name: `${table}_${column.name}_fkey`,
    columns: [column],
    foreignColumns: [target],
  });
  return onDelete ? key.onDelete(onDelete) : key;
}

/** A composite primary key under PostgreSQL's own name for it, `<table>_pkey`. */
const pk = (table: string, ...columns: [AnyPgColumn, ...AnyPgColumn[]]) =>
  primaryKey({ name: `${table}_pkey`, columns });

/** A text column limited to a few values: `<table>_<column>_check`, as PostgreSQL names it. */
const oneOf = (table: string, column: AnyPgColumn, values: string[]) =>
  check(
    `${table}_${column.name}_check`,
    sql.raw(`${column.name} IN (${values.map((v) => `'${v}'`).join(', ')})`),
  );

export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    email: text('email'),
    stripeCustomerId: text('stripe_customer_id'),
    createdAt: at('created_at').notNull(),
    accentColor: text('accent_color'),
    alertEmails: jsonb('alert_emails').$type<string[]>().notNull().default([]),
    /** Phone, e-mail, web site, office, call to action and time zone (Settings → Firm → Contact). */
    contact: jsonb('contact').$type<FirmContact>(),
    /** 0018: erase leads not converted this many months after their last change (null: keep them). */
    leadRetentionMonths: integer('lead_retention_months'),
  },
  (t) => [
    check(
      'accounts_lead_retention_months_check',
      sql`${t.leadRetentionMonths} IS NULL OR ${t.leadRetentionMonths} BETWEEN 3 AND 84`,
    ),
  ],
);

export const consentVersions = pgTable(
  'consent_versions',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    version: integer('version').notNull(),
    text: text('text').notNull(),
    textSha256: text('text_sha256').notNull(),
    createdAt: at('created_at').notNull(),
    /** 0018: the language the text is written in (`en`, `es`); the current version is per language. */
    language: text('language').notNull().default('en'),
  },
  (t) => [
    check('consent_versions_version_check', sql`version >= 1`),
    fk('consent_versions', t.accountId, accounts.id),
    uniqueIndex('consent_versions_account_version_key').on(t.accountId, t.version),
  ],
);

export const licenses = pgTable(
  'licenses',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
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
    stripeSubscriptionId: text('stripe_subscription_id'),
    renewsAt: at('renews_at'),
    cancelAt: at('cancel_at'),
    /** Made before publishable keys: the secret key still opens embed sessions until it is rolled. */
    legacySecretEmbed: boolean('legacy_secret_embed').notNull().default(false),
  },
  (t) => [
    check('licenses_seats_check', sql`seats >= 0`),
    fk('licenses', t.accountId, accounts.id),
    uniqueIndex('licenses_key_hmac_key').on(t.keyHmac),
    index('licenses_account_idx').on(t.accountId),
    index('licenses_stripe_subscription_idx').on(t.stripeSubscriptionId),
  ],
);

/**
 * Every key of a license, current and rolled. `expiresAt` null = current; a rolled key keeps
 * working until its `expiresAt` (the overlap). Secret keys are stored as HMACs, publishable keys
 * as is (they are public).
 */
export const licenseKeys = pgTable(
  'license_keys',
  {
    id: text('id').primaryKey(),
    licenseId: text('license_id').notNull(),
    kind: text('kind').$type<'secret' | 'publishable'>().notNull(),
    keyValue: text('key_value'),
    keyHmac: text('key_hmac'),
    keyLast4: text('key_last4').notNull(),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at'),
  },
  (t) => [
    oneOf('license_keys', t.kind, ['secret', 'publishable']),
    check('license_keys_check', sql`(kind = 'secret') = (key_hmac IS NOT NULL AND key_value IS NULL)`),
    fk('license_keys', t.licenseId, licenses.id),
    uniqueIndex('license_keys_value_key').on(t.keyValue).where(sql`key_value is not null`),
    uniqueIndex('license_keys_hmac_key').on(t.keyHmac).where(sql`key_hmac is not null`),
    index('license_keys_license_idx').on(t.licenseId, t.kind),
  ],
);

export const activations = pgTable(
  'activations',
  {
    id: text('id').primaryKey(),
    licenseId: text('license_id').notNull(),
    domain: text('domain').notNull(),
    env: text('env').$type<'prod' | 'dev'>().notNull(),
    firstSeenAt: at('first_seen_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    releasedAt: at('released_at'),
  },
  (t) => [
    oneOf('activations', t.env, ['prod', 'dev']),
    fk('activations', t.licenseId, licenses.id),
    uniqueIndex('activations_live_key').on(t.licenseId, t.domain).where(sql`released_at is null`),
  ],
);

export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    familyId: text('family_id').notNull(),
    activationId: text('activation_id').notNull(),
    licenseId: text('license_id').notNull(),
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
    fk('refresh_tokens', t.activationId, activations.id),
    fk('refresh_tokens', t.licenseId, licenses.id),
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
    licenseId: text('license_id').notNull(),
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
  (t) => [
    check('auth_codes_code_challenge_method_check', sql`code_challenge_method = 'S256'`),
    fk('auth_codes', t.licenseId, licenses.id),
    uniqueIndex('auth_codes_hmac_key').on(t.codeHmac),
  ],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    name: text('name').notNull(),
    keyHmac: text('key_hmac').notNull(),
    keyLast4: text('key_last4').notNull(),
    scopes: text('scopes').notNull(),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
    revokedAt: at('revoked_at'),
    expiresAt: at('expires_at'),
    createdBy: text('created_by'),
  },
  (t) => [
    fk('api_keys', t.accountId, accounts.id),
    fk('api_keys', t.createdBy, users.id),
    uniqueIndex('api_keys_hmac_key').on(t.keyHmac),
    index('api_keys_account_idx').on(t.accountId),
  ],
);

export const signingKeys = pgTable(
  'signing_keys',
  {
    kid: text('kid').primaryKey(),
    alg: text('alg').notNull(),
    publicJwk: jsonb('public_jwk').$type<Record<string, unknown>>().notNull(),
    privateKeyEnc: text('private_key_enc').notNull(),
    status: text('status').$type<'next' | 'active' | 'retired'>().notNull(),
    createdAt: at('created_at').notNull(),
    activatedAt: at('activated_at'),
    retireAfter: at('retire_after'),
  },
  (t) => [oneOf('signing_keys', t.status, ['next', 'active', 'retired'])],
);

export const secrets = pgTable('secrets', {
  name: text('name').primaryKey(),
  valueEnc: text('value_enc').notNull(),
  createdAt: at('created_at').notNull(),
});

export const calculationResults = pgTable(
  'calculation_results',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
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
    /** 0008: the host page's origin + path, as reported by the page (null before it reported one). */
    page: text('page'),
    /** 0018: the visitor's language (`en`, `es`): the widget showed, and the PDF writes, the result in it. */
    language: text('language').notNull().default('en'),
    /**
     * The notes' stable codes (calculators/texts.ts), in the notes' order, a note the texts do not
     * know as null; null for a result stored before codes (read from its English then).
     */
    noteCodes: jsonb('note_codes').$type<({ code: string; params?: Record<string, string> } | null)[]>(),
    /** The disclaimer's stable code (null before codes). Line items carry theirs in `line_items`. */
    disclaimerCode: text('disclaimer_code'),
  },
  (t) => [
    fk('calculation_results', t.accountId, accounts.id),
    index('calculation_results_account_idx').on(t.accountId, t.createdAt),
    // 0004: keyset pages newest first; partial indexes for live (non-test) rows.
    index('calculation_results_page_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('calculation_results_live_page_idx')
      .on(t.accountId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`test = false`),
    index('calculation_results_live_calculator_idx')
      .on(t.accountId, t.calculator, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`test = false`),
    index('calculation_results_live_state_idx')
      .on(t.accountId, t.state, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`test = false`),
  ],
);

export const leads = pgTable(
  'leads',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    licenseId: text('license_id'),
    calculator: text('calculator').notNull(),
    resultId: text('result_id'),
    name: text('name').notNull(),
    email: text('email').notNull(),
    phone: text('phone'),
    state: text('state'),
    status: text('status').$type<'new' | 'contacted' | 'converted' | 'lost'>().notNull(),
    consentText: text('consent_text').notNull(),
    consentedAt: at('consented_at').notNull(),
    idempotencyKey: text('idempotency_key'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    consentVersionId: text('consent_version_id'),
    test: boolean('test').notNull().default(false),
    quarantinedAt: at('quarantined_at'),
    /** 0008: where consent was given: the host page's origin + path, as reported by the page. */
    page: text('page'),
    /** 0015: `page` was checked against the embed session's origin: false = a foreign page was dropped. */
    pageVerified: boolean('page_verified'),
    /** 0009: the widget named no consent version (an older widget); the current one was stored. */
    consentAssumed: boolean('consent_assumed').notNull().default(false),
    /** 0013: the client's network (IPv4 /24, IPv6 /64), the unit spam signals count by. */
    sourceNet: text('source_net'),
    /** 0013: why the lead is held (empty when it never was). */
    quarantineReasons: jsonb('quarantine_reasons').$type<string[]>().notNull().default([]),
    /** 0013: the digest that carried its alert (past the plan's daily figure). */
    digestId: text('digest_id'),
    /** 0018: the visitor's language (`en`, `es`), as the widget was shown. */
    language: text('language').notNull().default('en'),
    /** 0018: the language of the consent text stored (a firm without a Spanish text shows its English one). */
    consentLanguage: text('consent_language').notNull().default('en'),
    /** 0018: why a `lost` lead was lost (null for any other status). */
    lostReason: text('lost_reason'),
    /** 0018: the result's main figure as its calculator declares it (null: no result, or not computed). */
    valueAmount: doublePrecision('value_amount'),
    /** 0018: priority as a number for sorting: 3 high, 2 medium, 1 low (null: not rated yet). */
    priorityRank: smallint('priority_rank'),
    /** 0018: the priority's reasons, plain sentences. */
    priorityReasons: jsonb('priority_reasons').$type<string[]>(),
    /** 0018: the priority rule table's version that rated it (`estate-tax.1`). */
    priorityVersion: text('priority_version'),
  },
  (t) => [
    oneOf('leads', t.status, ['new', 'contacted', 'converted', 'lost']),
    oneOf('leads', t.lostReason, ['went_elsewhere', 'not_a_fit', 'no_answer', 'other']),
    fk('leads', t.accountId, accounts.id),
    fk('leads', t.consentVersionId, consentVersions.id),
    index('leads_account_idx').on(t.accountId, t.createdAt),
    // 0004: keyset pages newest first; partial indexes for live rows (not test, not quarantined).
    index('leads_account_page_idx').on(
      t.accountId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    index('leads_live_page_idx')
      .on(t.accountId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(LIVE_LEAD),
    index('leads_live_status_idx')
      .on(t.accountId, t.status, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(LIVE_LEAD),
    index('leads_live_calculator_idx')
      .on(t.accountId, t.calculator, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(LIVE_LEAD),
    index('leads_live_state_idx')
      .on(t.accountId, t.state, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(LIVE_LEAD),
    index('leads_license_source_idx').on(t.licenseId, t.sourceNet, t.createdAt),
    // 0027: how many test leads a list hides (`hiddenTest`), counted from a small partial index
    // instead of every lead of the firm (45 ms at 100,000 leads on PGlite over REST).
    index('leads_test_idx').on(t.accountId, t.status).where(sql`test = true`),
    // 0018: sorting by value or priority, keyset on (key, created_at, id); unrated sorts last.
    index('leads_live_value_idx')
      .on(
        t.accountId,
        sql`(coalesce(${t.valueAmount}, -1)) DESC`,
        t.createdAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(LIVE_LEAD),
    index('leads_live_priority_idx')
      .on(
        t.accountId,
        sql`(coalesce(${t.priorityRank}, 0)) DESC`,
        t.createdAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(LIVE_LEAD),
    // Search by the start of a name or an e-mail, case-insensitive (a LIKE 'p%' on the lower-cased
    // column becomes a range of this index). The columns after the key are what the capped count
    // reads, so a common prefix is counted by an index-only scan instead of visiting the rows
    // (PGlite's seq scan took 100-400 ms at 100,000 leads): the name (the planner wants the column
    // behind lower(name)), the snapshot time, test, held and the status filter.
    index('leads_name_search_idx').on(
      t.accountId,
      sql`lower(${t.name}) text_pattern_ops`,
      t.name,
      t.createdAt,
      t.test,
      t.quarantinedAt,
      t.status,
    ),
    index('leads_email_search_idx').on(
      t.accountId,
      sql`lower(${t.email}) text_pattern_ops`,
      t.email,
      t.name,
      t.createdAt,
      t.test,
      t.quarantinedAt,
      t.status,
    ),
    // 0018: the priority recompute job walks leads rated by an older rule table.
    index('leads_priority_version_idx').on(t.calculator, t.priorityVersion),
  ],
);

/** 0018: notes a firm's people write on a lead (author, time, text); erased with the lead. */
export const leadNotes = pgTable(
  'lead_notes',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    leadId: text('lead_id').notNull(),
    /** Who wrote it, as the activity trail names people (`user:<e-mail>`, `apikey:<id>`). */
    author: text('author').notNull(),
    body: text('body').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    fk('lead_notes', t.accountId, accounts.id),
    fk('lead_notes', t.leadId, leads.id, 'cascade'),
    index('lead_notes_lead_idx').on(t.accountId, t.leadId, t.createdAt),
  ],
);

/** 0013: one digest per firm, kind and window (`alerts` hourly, `quarantine` daily). */
export const leadDigests = pgTable(
  'lead_digests',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    kind: text('kind').$type<'alerts' | 'quarantine'>().notNull(),
    windowStart: at('window_start').notNull(),
    sendAt: at('send_at').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    fk('lead_digests', t.accountId, accounts.id),
    uniqueIndex('lead_digests_window_idx').on(t.accountId, t.kind, t.windowStart),
  ],
);

/** 0013: spent proof-of-work challenges, per license, until they expire. */
export const spentChallenges = pgTable(
  'spent_challenges',
  {
    licenseId: text('license_id').notNull(),
    challenge: text('challenge').notNull(),
    expiresAt: at('expires_at').notNull(),
  },
  (t) => [
    pk('spent_challenges', t.licenseId, t.challenge),
    index('spent_challenges_expiry_idx').on(t.expiresAt),
  ],
);

/** Live leads per account, UTC day, calculator and status; kept by triggers (0004), read by stats. */
export const leadDailyCounts = pgTable(
  'lead_daily_counts',
  {
    accountId: text('account_id').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    calculator: text('calculator').notNull(),
    status: text('status').notNull(),
    leads: integer('leads').notNull(),
  },
  (t) => [pk('lead_daily_counts', t.accountId, t.day, t.calculator, t.status)],
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
  (t) => [pk('idempotency_keys', t.accountId, t.key)],
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
    accountId: text('account_id').notNull(),
    userId: text('user_id').notNull(),
    role: text('role').$type<MembershipRole>().notNull(),
    invitedBy: text('invited_by'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    oneOf('memberships', t.role, ['owner', 'admin', 'viewer']),
    fk('memberships', t.accountId, accounts.id),
    fk('memberships', t.userId, users.id),
    pk('memberships', t.accountId, t.userId),
    index('memberships_user_idx').on(t.userId),
  ],
);

export const portalSessions = pgTable(
  'portal_sessions',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    accountId: text('account_id').notNull(),
    tokenHmac: text('token_hmac').notNull(),
    method: text('method').$type<'magic_link' | 'passkey'>().notNull(),
    userAgent: text('user_agent'),
    createdAt: at('created_at').notNull(),
    lastSeenAt: at('last_seen_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    revokedAt: at('revoked_at'),
  },
  (t) => [
    oneOf('portal_sessions', t.method, ['magic_link', 'passkey']),
    fk('portal_sessions', t.userId, users.id),
    fk('portal_sessions', t.accountId, accounts.id),
    uniqueIndex('portal_sessions_token_key').on(t.tokenHmac),
    index('portal_sessions_user_idx').on(t.userId),
  ],
);

export const magicLinks = pgTable(
  'magic_links',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    accountId: text('account_id'),
    tokenHmac: text('token_hmac').notNull(),
    purpose: text('purpose').$type<'sign_in' | 'invite'>().notNull(),
    nextPath: text('next_path'),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    oneOf('magic_links', t.purpose, ['sign_in', 'invite']),
    fk('magic_links', t.userId, users.id),
    fk('magic_links', t.accountId, accounts.id),
    uniqueIndex('magic_links_token_key').on(t.tokenHmac),
  ],
);

/** 0011: a firm's invitation, pending until the invitee accepts it (token HMAC at rest, 72 h). */
export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    email: text('email').notNull(),
    role: text('role').$type<MembershipRole>().notNull(),
    tokenHmac: text('token_hmac').notNull(),
    invitedBy: text('invited_by'),
    createdAt: at('created_at').notNull(),
    expiresAt: at('expires_at').notNull(),
    acceptedAt: at('accepted_at'),
    declinedAt: at('declined_at'),
  },
  (t) => [
    oneOf('invitations', t.role, ['owner', 'admin', 'viewer']),
    fk('invitations', t.accountId, accounts.id),
    uniqueIndex('invitations_token_key').on(t.tokenHmac),
    index('invitations_email_idx').on(t.email, t.createdAt),
    index('invitations_account_idx').on(t.accountId, t.createdAt),
  ],
);

/** 0011: sign-in and invitation mails: the queue `auth/email` feeds, and the files retention removes. */
export const portalMails = pgTable(
  'portal_mails',
  {
    id: text('id').primaryKey(),
    kind: text('kind').$type<'sign_in' | 'invitation'>().notNull(),
    email: text('email'),
    nextPath: text('next_path'),
    status: text('status').$type<'pending' | 'sent' | 'skipped' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    lockedUntil: at('locked_until'),
    filePath: text('file_path'),
    linkExpiresAt: at('link_expires_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    oneOf('portal_mails', t.kind, ['sign_in', 'invitation']),
    oneOf('portal_mails', t.status, ['pending', 'sent', 'skipped', 'failed']),
    index('portal_mails_pending_idx').on(t.createdAt).where(sql`status = 'pending'`),
    index('portal_mails_expiry_idx').on(t.linkExpiresAt),
  ],
);

export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').notNull(),
    credentialId: text('credential_id').notNull(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull(),
    transports: jsonb('transports').$type<string[]>().notNull().default([]),
    name: text('name').notNull(),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
  },
  (t) => [
    fk('passkeys', t.userId, users.id),
    uniqueIndex('passkeys_credential_key').on(t.credentialId),
    index('passkeys_user_idx').on(t.userId),
  ],
);

export const webauthnChallenges = pgTable(
  'webauthn_challenges',
  {
    id: text('id').primaryKey(),
    challenge: text('challenge').notNull(),
    userId: text('user_id'),
    purpose: text('purpose').$type<'register' | 'authenticate'>().notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    fk('webauthn_challenges', t.userId, users.id),
    oneOf('webauthn_challenges', t.purpose, ['register', 'authenticate']),
  ],
);

/** Stripe events applied (or deliberately ignored), each once: a replay is a no-op. */
export const stripeEvents = pgTable('stripe_events', {
  id: text('id').primaryKey(),
  type: text('type').notNull(),
  licenseId: text('license_id'),
  outcome: text('outcome').notNull(),
  receivedAt: at('received_at').notNull(),
});

export const webhookEndpoints = pgTable(
  'webhook_endpoints',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    url: text('url').notNull(),
    events: jsonb('events').$type<string[]>().notNull(),
    description: text('description'),
    includeTest: boolean('include_test').notNull().default(false),
    secretEnc: text('secret_enc').notNull(),
    previousSecretEnc: text('previous_secret_enc'),
    previousSecretExpiresAt: at('previous_secret_expires_at'),
    disabledAt: at('disabled_at'),
    disabledReason: text('disabled_reason'),
    failingSince: at('failing_since'),
    createdAt: at('created_at').notNull(),
    updatedAt: at('updated_at').notNull(),
    /**
     * Issue 42: `webhook`, or a CRM destination's vendor (`clio-grow`, `hubspot`, `salesforce`,
     * `wealthbox`). A destination keeps its vendor credential in `secret_enc` (encrypted like a
     * signing secret, so `secrets rotate` re-encrypts it) and its other settings here.
     */
    kind: text('kind').notNull().default('webhook'),
    destinationConfig: jsonb('destination_config').$type<Record<string, unknown>>(),
    /** After a 429: nothing is sent to this target before this time (the vendor's Retry-After). */
    pausedUntil: at('paused_until'),
  },
  (t) => [
    fk('webhook_endpoints', t.accountId, accounts.id),
    index('webhook_endpoints_account_idx').on(t.accountId),
  ],
);

export const outboxEvents = pgTable(
  'outbox_events',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    type: text('type').notNull(),
    payload: jsonb('payload').$type<Record<string, unknown>>().notNull(),
    test: boolean('test').notNull().default(false),
    leadId: text('lead_id'),
    resultId: text('result_id'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    fk('outbox_events', t.accountId, accounts.id),
    index('outbox_events_account_idx').on(t.accountId, t.createdAt),
    index('outbox_events_lead_idx').on(t.leadId),
    index('outbox_events_result_idx').on(t.resultId),
  ],
);

export const webhookDeliveries = pgTable(
  'webhook_deliveries',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    endpointId: text('endpoint_id').notNull(),
    eventId: text('event_id').notNull(),
    status: text('status').$type<'pending' | 'succeeded' | 'failed' | 'cancelled'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lockedUntil: at('locked_until'),
    lastAttemptAt: at('last_attempt_at'),
    completedAt: at('completed_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    oneOf('webhook_deliveries', t.status, ['pending', 'succeeded', 'failed', 'cancelled']),
    fk('webhook_deliveries', t.accountId, accounts.id),
    fk('webhook_deliveries', t.endpointId, webhookEndpoints.id, 'cascade'),
    fk('webhook_deliveries', t.eventId, outboxEvents.id, 'cascade'),
    index('webhook_deliveries_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('webhook_deliveries_endpoint_idx').on(t.endpointId, t.createdAt),
    index('webhook_deliveries_event_idx').on(t.eventId),
  ],
);

export const deliveryAttempts = pgTable(
  'delivery_attempts',
  {
    id: text('id').primaryKey(),
    deliveryId: text('delivery_id').notNull(),
    attempt: integer('attempt').notNull(),
    startedAt: at('started_at').notNull(),
    durationMs: integer('duration_ms').notNull(),
    statusCode: integer('status_code'),
    error: text('error'),
    responseExcerpt: text('response_excerpt'),
    /** 0012: the inspector: what was sent and received, credentials redacted, bodies capped. */
    requestHeaders: jsonb('request_headers').$type<Record<string, string>>(),
    requestBody: text('request_body'),
    requestBodyTruncated: boolean('request_body_truncated').notNull().default(false),
    responseHeaders: jsonb('response_headers').$type<Record<string, string>>(),
    responseTruncated: boolean('response_truncated').notNull().default(false),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    fk('delivery_attempts', t.deliveryId, webhookDeliveries.id, 'cascade'),
    index('delivery_attempts_delivery_idx').on(t.deliveryId, t.attempt),
  ],
);

export const mailMessages = pgTable(
  'mail_messages',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    kind: text('kind')
      .$type<
        'lead_alert' | 'endpoint_disabled' | 'lead_digest' | 'quarantine_report' | 'destination_disabled'
      >()
      .notNull(),
    eventId: text('event_id'),
    leadId: text('lead_id'),
    recipients: jsonb('recipients').$type<string[]>().notNull(),
    subject: text('subject'),
    body: jsonb('body').$type<Record<string, unknown>>(),
    status: text('status').$type<'pending' | 'sent' | 'failed'>().notNull(),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: at('next_attempt_at').notNull(),
    lockedUntil: at('locked_until'),
    sentAt: at('sent_at'),
    filePath: text('file_path'),
    lastError: text('last_error'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    oneOf('mail_messages', t.status, ['pending', 'sent', 'failed']),
    fk('mail_messages', t.accountId, accounts.id),
    fk('mail_messages', t.eventId, outboxEvents.id, 'cascade'),
    index('mail_messages_due_idx').on(t.nextAttemptAt).where(sql`status = 'pending'`),
    index('mail_messages_lead_idx').on(t.leadId),
  ],
);

export const accountClosures = pgTable('account_closures', {
  accountId: text('account_id').primaryKey(),
  requestedAt: at('requested_at').notNull(),
  deleteAfter: at('delete_after').notNull(),
  actor: text('actor').notNull(),
});

/**
 * OAuth clients of the MCP endpoint registered by Dynamic Client Registration (RFC 7591). The name
 * is the client's own claim, never verified; `secretHmac` only for confidential clients.
 */
export const oauthClients = pgTable('oauth_clients', {
  id: text('id').primaryKey(),
  name: text('name'),
  redirectUris: jsonb('redirect_uris').$type<string[]>().notNull(),
  tokenEndpointAuthMethod: text('token_endpoint_auth_method').notNull(),
  secretHmac: text('secret_hmac'),
  createdAt: at('created_at').notNull(),
  createdIp: text('created_ip'),
});

/**
 * What a firm's owner or admin approved for one MCP client: read access to the firm's data, as long
 * as the grant is not revoked and its approver may still approve. Access tokens name the grant and
 * are checked against this row on every request. A grant is pending until its code is exchanged
 * (`activated_at`): only then did the application come back, so only then does it count as connected.
 */
export const mcpGrants = pgTable(
  'mcp_grants',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    approverUserId: text('approver_user_id').notNull(),
    clientId: text('client_id').notNull(),
    clientKind: text('client_kind').$type<'dcr' | 'metadata'>().notNull(),
    clientName: text('client_name'),
    redirectHost: text('redirect_host').notNull(),
    scopes: text('scopes').notNull(),
    resource: text('resource').notNull(),
    createdAt: at('created_at').notNull(),
    lastUsedAt: at('last_used_at'),
    activatedAt: at('activated_at'),
    revokedAt: at('revoked_at'),
    revokeReason: text('revoke_reason'),
  },
  (t) => [
    oneOf('mcp_grants', t.clientKind, ['dcr', 'metadata']),
    fk('mcp_grants', t.accountId, accounts.id),
    fk('mcp_grants', t.approverUserId, users.id),
    index('mcp_grants_account_idx').on(t.accountId, t.createdAt),
    index('mcp_grants_approver_idx').on(t.approverUserId),
  ],
);

/** Single-use, 60-second authorization codes of the MCP flow (PKCE S256), bound to their grant. */
export const mcpAuthCodes = pgTable(
  'mcp_auth_codes',
  {
    id: text('id').primaryKey(),
    codeHmac: text('code_hmac').notNull(),
    grantId: text('grant_id').notNull(),
    clientId: text('client_id').notNull(),
    redirectUri: text('redirect_uri').notNull(),
    codeChallenge: text('code_challenge').notNull(),
    resource: text('resource').notNull(),
    scopes: text('scopes').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    fk('mcp_auth_codes', t.grantId, mcpGrants.id),
    uniqueIndex('mcp_auth_codes_hmac_key').on(t.codeHmac),
  ],
);

/** Rotating refresh tokens of the MCP flow: one family per grant, HMAC at rest. */
export const mcpRefreshTokens = pgTable(
  'mcp_refresh_tokens',
  {
    id: text('id').primaryKey(),
    grantId: text('grant_id').notNull(),
    tokenHmac: text('token_hmac').notNull(),
    scopes: text('scopes').notNull(),
    resource: text('resource').notNull(),
    parentId: text('parent_id'),
    replacedById: text('replaced_by_id'),
    usedAt: at('used_at'),
    revokedAt: at('revoked_at'),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    fk('mcp_refresh_tokens', t.grantId, mcpGrants.id),
    uniqueIndex('mcp_refresh_tokens_hmac_key').on(t.tokenHmac),
    index('mcp_refresh_tokens_grant_idx').on(t.grantId),
  ],
);

/**
 * Each change of calculators/rules-changelog.ts, recorded once by its stable id: the process whose
 * insert succeeds announces it (in the same transaction), so several workers or instances starting
 * at once announce a change exactly once.
 */
export const ruleChanges = pgTable('rule_changes', {
  id: text('id').primaryKey(),
  change: jsonb('change').$type<Record<string, unknown>>().notNull(),
  recordedAt: at('recorded_at').notNull(),
  /** How many firms were told (0 for a change recorded without an announcement). */
  firmsTold: integer('firms_told').notNull().default(0),
});

/** A rule change a firm is told of (the portal's banner), until a member dismisses it. */
export const ruleNotices = pgTable(
  'rule_notices',
  {
    accountId: text('account_id').notNull(),
    changeId: text('change_id').notNull(),
    createdAt: at('created_at').notNull(),
    dismissedAt: at('dismissed_at'),
  },
  (t) => [
    pk('rule_notices', t.accountId, t.changeId),
    fk('rule_notices', t.accountId, accounts.id, 'cascade'),
    fk('rule_notices', t.changeId, ruleChanges.id),
  ],
);

/**
 * Files an MCP tool made (`export_results`, `generate_report`), read back through `resources/read`
 * by the same credential (`actor`: `apikey:<id>` or `mcp_grant:<id>`) until `expires_at` (15
 * minutes). Personal data: kept only that long, removed when the firm is deleted.
 */
export const mcpExports = pgTable(
  'mcp_exports',
  {
    id: text('id').primaryKey(),
    accountId: text('account_id').notNull(),
    actor: text('actor').notNull(),
    kind: text('kind').notNull(),
    mimeType: text('mime_type').notNull(),
    /** UTF-8 text (CSV, JSON) or base64 (a PDF), as `encoding` says. */
    content: text('content').notNull(),
    encoding: text('encoding').$type<'utf8' | 'base64'>().notNull(),
    rows: integer('rows'),
    bytes: integer('bytes').notNull(),
    expiresAt: at('expires_at').notNull(),
    createdAt: at('created_at').notNull(),
  },
  (t) => [
    oneOf('mcp_exports', t.encoding, ['utf8', 'base64']),
    fk('mcp_exports', t.accountId, accounts.id, 'cascade'),
    index('mcp_exports_expires_idx').on(t.expiresAt),
  ],
);

/**
 * The funnel's counters: one row per license, calculator, page, language, UTC day and traffic kind
 * (test or not) → views, calculations, leads (live) and held leads, written only by additive
 * upserts from each instance's in-memory counter (`domain/funnel/counter.ts`), never on a request;
 * and the outcomes of the leads created that day (contacted, converted, lost), kept by triggers.
 * No visitor identifier, cookie or address. `page` is origin + masked path, '' when none was
 * reported, or `(other pages)` past the day's cap.
 */
export const funnelDaily = pgTable(
  'funnel_daily',
  {
    accountId: text('account_id').notNull(),
    licenseId: text('license_id').notNull(),
    calculator: text('calculator').notNull(),
    page: text('page').notNull(),
    language: text('language').notNull(),
    day: date('day', { mode: 'string' }).notNull(),
    test: boolean('test').notNull(),
    views: integer('views').notNull().default(0),
    calculations: integer('calculations').notNull().default(0),
    leads: integer('leads').notNull().default(0),
    heldLeads: integer('held_leads').notNull().default(0),
    /**
     * 0028: what became of the live leads (not test, not held) created that UTC day, as they stand
     * now: `contacted` is any status past `new`, `converted` and `lost` name theirs. Kept by
     * statement-level triggers on `leads` (every writer: status changes, test/held flags, deletes,
     * erasure, retention), keyed by the lead's own license ('(none) <account id>' for none),
     * calculator, page as the funnel counts it (`funnel_page()`, the SQL twin of `funnelPage`),
     * language and creation day; `test` is always false. A row may carry only these (its other
     * counts 0).
     */
    contacted: integer('contacted').notNull().default(0),
    converted: integer('converted').notNull().default(0),
    lost: integer('lost').notNull().default(0),
  },
  (t) => [
    pk('funnel_daily', t.licenseId, t.day, t.calculator, t.page, t.language, t.test),
    index('funnel_daily_account_idx').on(t.accountId, t.day),
  ],
);
