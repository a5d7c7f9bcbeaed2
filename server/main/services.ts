import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database } from '../db/engine/database.ts';
import { sendSignInMails } from '../domain/accounts/sign-in-mails.ts';
import type { BillingDeps } from '../domain/billing/billing-portal.ts';
import { createStripeClient } from '../domain/billing/stripe-client.ts';
import { cacheModeOf, createLookupCaches, type LookupCaches } from '../domain/caches/lookup-caches.ts';
import { createSigningKeyRing, ensureActiveSigningKey } from '../domain/credentials/signing-key-ring.ts';
import { createTokenService, type KeyRing } from '../domain/credentials/tokens.ts';
import { createDeliveryDeps, type DeliveryDeps } from '../domain/delivery/deps.ts';
import { systemResolver } from '../domain/delivery/ssrf-guard.ts';
import type { LicensingDeps } from '../domain/deps.ts';
import { createFunnelCounter } from '../domain/funnel/counter.ts';
import { createViewLedger } from '../domain/funnel/view-ledger.ts';
import { cursorKeyFrom } from '../domain/leads/cursor.ts';
import { createLicenseCeilings } from '../domain/licensing/ceilings.ts';
import { endGrants } from '../domain/oauth/grants.ts';
import { type McpOAuthConfig, mcpOAuthConfigOf, type OAuthDeps } from '../domain/oauth/mcp-resource.ts';
import { outboxDepth } from '../domain/outbox/outbox.ts';
import type { PortalAppDeps } from '../domain/portal/deps.ts';
import { credentialRateKey } from '../http/auth/auth.ts';
import { createMetrics, type Metrics } from '../http/metrics/metrics.ts';
import { createCounters } from '../http/rate-limit/counters.ts';
import { createRateLimiter } from '../http/rate-limit/rate-limiter.ts';
import { createSignInLimiter } from '../http/rate-limit/sign-in-limiter.ts';
import type { Config } from '../infra/env.ts';
import { repoRoot } from '../infra/repo-root.ts';
import type { Clock } from '../lib/clock.ts';
import { createMailer, outboxDirOf } from '../mail/mailer.ts';
import { createMcpRoutes } from '../mcp/mcp-routes.ts';
import type { McpDeps } from '../mcp/tools.ts';
import { createOAuthRoutes } from '../routes/oauth/authorization-server.ts';
import { createPortalRoutes } from '../routes/portal/index.ts';
import { createPortalPageRoutes } from '../routes/portal/pages.ts';
import { createBillingPageRoutes, createBillingRoutes } from '../routes/public/billing.ts';
import { createCalculationRoutes } from '../routes/public/calculations.ts';
import { createEmbedSessionRoutes } from '../routes/public/embed-session.ts';
import { createFunnelRoutes } from '../routes/public/funnel.ts';
import { createJwksRoutes } from '../routes/public/jwks.ts';
import { createLeadChallengeRoutes } from '../routes/public/lead-challenge.ts';
import { createLeadRoutes } from '../routes/public/leads.ts';
import { createLicenseRoutes } from '../routes/public/licenses.ts';
import { createStripeWebhookRoutes } from '../routes/public/stripe-webhooks.ts';
import { createSecretStore } from '../secrets/secret-store.ts';
import { createApp } from './app.ts';

export interface Services {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  secretKey: Buffer;
  /** Shared Redis (scale-out): rate-limit counters and the lookup caches' epoch. */
  redis?: Redis;
  caches: LookupCaches;
  keys: KeyRing & { refresh(): void };
  licensing: LicensingDeps;
  billing: BillingDeps;
  portal: PortalAppDeps;
  metrics: Metrics;
  /** Lead queries (MCP tools, REST lead list): database, clock and the cursor-signing key. */
  queries: McpDeps;
  delivery: DeliveryDeps;
  /** The OAuth server for MCP clients (metadata, registration, tokens, consent). */
  oauth: OAuthDeps;
}

/**
 * Everything the routes need, built once per process from configuration and an open, migrated
 * database. Shared secrets (HMAC pepper, signing keys) live in the database, encrypted with
 * `secretKey`, so every instance uses the same ones.
 */
export async function createServices(opts: {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  secretKey: Buffer;
  redis?: Redis;
}): Promise<Services> {
  const { config, database, clock, secretKey } = opts;
  const metrics = createMetrics();
  const caches = createLookupCaches({
    mode: cacheModeOf(config),
    clock,
    prefix: config.REDIS_KEY_PREFIX,
    ...(opts.redis ? { redis: opts.redis } : {}),
    onLookup: metrics.cache,
  });
  const db = database.db;
  const store = createSecretStore(db, secretKey);
  const pepper = Buffer.from(
    await store.getOrCreate('hmac-pepper', () => randomBytes(32).toString('base64')),
    'base64',
  );
  await ensureActiveSigningKey({ db, secretKey, clock });
  const keys = createSigningKeyRing({ db, secretKey, clock });
  const tokens = createTokenService({ issuer: await tokenIssuer(config, store), keys, clock, caches });
  const mcpOAuth = mcpOAuthConfigOf(config.publicApiUrl);
  const funnel = createFunnelCounter({
    db,
    clock,
    onError: (e) => opts.logger.warn({ err: e }, 'funnel counts not written yet; kept for the next flush'),
    onFlush: (events) => opts.logger.debug({ events }, 'funnel counts written'),
  });
  const licensing: LicensingDeps = {
    db,
    clock,
    funnel,
    views: createViewLedger({ clock, redis: opts.redis, prefix: config.REDIS_KEY_PREFIX }),
    tokens,
    pepper,
    plans: config.plans,
    caches,
    accessTokenTtlMs: config.ACCESS_TOKEN_TTL_SECONDS * 1000,
    portalLeadsUrl: `${config.publicPortalUrl}/portal/leads`,
    mcpResources: [mcpOAuth.canonical, mcpOAuth.alias],
  };
  const billing: BillingDeps = {
    db,
    clock,
    tokens,
    caches,
    publicApiUrl: config.publicApiUrl,
    plans: config.plans,
    ...(config.STRIPE_WEBHOOK_SECRET ? { webhookSecret: config.STRIPE_WEBHOOK_SECRET } : {}),
    ...(config.STRIPE_SECRET_KEY
      ? { stripe: createStripeClient(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE) }
      : {}),
  };
  const pool = database.poolStats;
  if (pool) {
    metrics.gauge('svc_db_pool_total', 'PostgreSQL pool connections open.', () => pool().total);
    metrics.gauge('svc_db_pool_idle', 'PostgreSQL pool connections idle.', () => pool().idle);
    metrics.gauge('svc_db_pool_waiting', 'Queries waiting for a pool connection.', () => pool().waiting);
  }
  // One count in the database whichever worker reads it: shared, so reported once under a primary.
  metrics.gauge(
    'svc_outbox_pending_webhooks',
    'Webhook deliveries waiting in the outbox.',
    () => outboxDepth(db, 'webhooks'),
    { shared: true },
  );
  metrics.gauge(
    'svc_outbox_pending_mails',
    'Alert mails waiting in the outbox.',
    () => outboxDepth(db, 'mails'),
    { shared: true },
  );
  const queries: McpDeps = {
    db,
    clock,
    cursorKey: cursorKeyFrom(pepper),
    logger: opts.logger,
    portalLeadsUrl: `${config.publicPortalUrl}/portal/leads`,
    licensing,
    funnel,
  };
  const delivery = { ...createDeliveryDeps({ db, clock, secretKey, logger: opts.logger, config }), caches };
  const portal: PortalAppDeps = {
    ...licensing,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, outboxDir: outboxDirOf(config.DATA_DIR) }),
    mailFrom: config.MAIL_FROM,
    queries,
    portalUrl: config.publicPortalUrl,
    embedUrl: config.publicEmbedUrl,
    apiUrl: config.publicApiUrl,
    logger: opts.logger,
    delivery,
    billing,
    endApproverGrants: (where, reason, actor) => endGrants(licensing, where, reason, actor),
  };
  delivery.sendPortalMails = () => sendSignInMails(portal);
  const oauth = createOAuthDeps(licensing, mcpOAuth, config, opts.logger, opts.redis);
  return { ...opts, caches, keys, licensing, billing, metrics, queries, delivery, portal, oauth };
}

/**
 * The OAuth server's deps: its limits on the service's counters (per client IP for registration,
 * per client for tokens, per document host for metadata fetches) and the webhooks' outbound rules.
 */
function createOAuthDeps(
  licensing: LicensingDeps,
  oauth: McpOAuthConfig,
  config: Config,
  logger: Logger,
  redis: Redis | undefined,
): OAuthDeps {
  const counters = createCounters({ redis, prefix: config.REDIS_KEY_PREFIX });
  const scaled = (n: number) => Math.max(1, Math.round(n * config.RATE_LIMIT_SCALE));
  const windows = {
    register: counters.window('oauth:register', scaled(20), 3600),
    token: counters.window('oauth:token', scaled(60), 60),
    document: counters.window('oauth:document', scaled(20), 60),
  };
  return {
    ...licensing,
    oauth,
    allow: async (limit, key) => (await windows[limit].hit(key)).allowed,
    fetchRules: {
      resolver: systemResolver,
      allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS,
      timeoutMs: 5_000,
    },
    logger,
  };
}

/**
 * The `iss` of every token. PUBLIC_API_URL when the operator sets it (then it must be the same on
 * every instance, as it is the public address); otherwise the first instance's API URL, stored in
 * the shared database, so instances on different ports or hosts agree without being told.
 */
async function tokenIssuer(config: Config, store: ReturnType<typeof createSecretStore>): Promise<string> {
  if (config.PUBLIC_API_URL) return config.publicApiUrl;
  return store.getOrCreate('token-issuer', () => config.publicApiUrl);
}

/** The API app with every feature router mounted. */
export function createApiApp(
  services: Services,
  opts: { redis?: Redis; isShuttingDown?: () => boolean } = {},
) {
  const { config, licensing } = services;
  const rateLimiter = createRateLimiter({
    scale: config.RATE_LIMIT_SCALE,
    prefix: config.REDIS_KEY_PREFIX,
    ...(opts.redis ? { redis: opts.redis } : {}),
    ...(services.caches.mode === 'shared' ? { coherence: services.caches } : {}),
  });
  const ceilings = createLicenseCeilings(licensing, {
    count: rateLimiter.count,
    peek: rateLimiter.peek,
    tight: async (key) => {
      const decision = await rateLimiter.consume('tight', key);
      return { allowed: decision.allowed, resetMs: decision.resetMs };
    },
  });
  return createApp({
    config,
    clock: services.clock,
    logger: services.logger,
    rateLimiter,
    tighten: {
      watch: (caller) => ceilings.sessionsCounter(caller.licenseId),
      check: (caller, ipKey, sessions) => ceilings.embedCall(caller.licenseId, caller.plan, ipKey, sessions),
    },
    ping: () => services.database.ping(),
    ...(opts.redis ? { pingRedis: async () => void (await opts.redis!.ping()) } : {}),
    metrics: services.metrics,
    ...(opts.isShuttingDown ? { isShuttingDown: opts.isShuttingDown } : {}),
    credentialKey: credentialRateKey(licensing),
    licensing,
    v1Routes: [
      createLicenseRoutes(licensing),
      createEmbedSessionRoutes(
        {
          ...licensing,
          embedUrl: config.publicEmbedUrl,
          // The portal (served from the API origin) previews widgets in test mode.
          testOrigins: [new URL(config.publicApiUrl).origin],
        },
        ceilings,
      ),
      createBillingRoutes(licensing, services.billing),
      createStripeWebhookRoutes(services.billing),
      createCalculationRoutes(licensing),
      createLeadChallengeRoutes(licensing),
      createLeadRoutes(licensing, services.queries),
      createFunnelRoutes(licensing),
      createMcpRoutes({
        licensing,
        mcp: services.queries,
        publicApiUrl: config.publicApiUrl,
        corsOrigins: config.corsOrigins,
      }),
      ...createPortalRoutes(
        services.portal,
        createSignInLimiter({
          scale: config.RATE_LIMIT_SCALE,
          prefix: config.REDIS_KEY_PREFIX,
          ...(opts.redis ? { redis: opts.redis } : {}),
        }),
        config.TRUST_PROXY,
        services.oauth,
      ),
    ],
    rootRoutes: [
      createJwksRoutes(services.keys),
      createOAuthRoutes(services.oauth),
      createBillingPageRoutes(services.billing),
      createPortalPageRoutes({
        distDir: `${repoRoot()}/dist/portal`,
        apiUrl: config.publicApiUrl,
        embedUrl: config.publicEmbedUrl,
        portalUrl: config.publicPortalUrl,
      }),
    ],
  });
}
