import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { createApp } from './app.ts';
import type { BillingDeps } from './billing/billing-portal.ts';
import { createStripeClient } from './billing/stripe-client.ts';
import type { Clock } from './clock.ts';
import type { Database } from './db/database.ts';
import type { PortalDeps } from './domain/portal/portal-deps.ts';
import { createSigningKeyRing, ensureActiveSigningKey } from './domain/signing-key-ring.ts';
import type { LicensingDeps } from './domain/token-set.ts';
import { createTokenService, type KeyRing } from './domain/tokens.ts';
import type { Config } from './env.ts';
import { credentialRateKey } from './http/auth.ts';
import { createRateLimiter } from './http/rate-limiter.ts';
import { createSignInLimiter } from './http/sign-in-limiter.ts';
import { createMailer } from './mail/mailer.ts';
import { repoRoot } from './repo-root.ts';
import { createBillingPageRoutes, createBillingRoutes } from './routes/billing.ts';
import { createCalculationRoutes } from './routes/calculations.ts';
import { createEmbedSessionRoutes } from './routes/embed-session.ts';
import { createJwksRoutes } from './routes/jwks.ts';
import { createLeadRoutes } from './routes/leads.ts';
import { createLicenseRoutes } from './routes/licenses.ts';
import { createPortalRoutes } from './routes/portal/index.ts';
import { createPortalPageRoutes } from './routes/portal/portal-pages.ts';
import { createSecretStore } from './secrets/secret-store.ts';

export interface Services {
  config: Config;
  database: Database;
  clock: Clock;
  logger: Logger;
  secretKey: Buffer;
  keys: KeyRing & { refresh(): void };
  licensing: LicensingDeps;
  billing: BillingDeps;
  portal: PortalDeps;
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
}): Promise<Services> {
  const { config, database, clock, secretKey } = opts;
  const db = database.db;
  const store = createSecretStore(db, secretKey);
  const pepper = Buffer.from(
    await store.getOrCreate('hmac-pepper', () => randomBytes(32).toString('base64')),
    'base64',
  );
  await ensureActiveSigningKey({ db, secretKey, clock });
  const keys = createSigningKeyRing({ db, secretKey, clock });
  const tokens = createTokenService({ issuer: config.publicApiUrl, keys, clock });
  const licensing: LicensingDeps = { db, clock, tokens, pepper };
  const billing: BillingDeps = {
    db,
    clock,
    tokens,
    publicApiUrl: config.publicApiUrl,
    ...(config.STRIPE_SECRET_KEY
      ? { stripe: createStripeClient(config.STRIPE_SECRET_KEY, config.STRIPE_API_BASE) }
      : {}),
  };
  const portal: PortalDeps = {
    ...licensing,
    mailer: createMailer({
      ...(config.SMTP_URL ? { smtpUrl: config.SMTP_URL } : {}),
      outboxDir: `${config.DATA_DIR}/outbox`,
      from: config.MAIL_FROM,
    }),
    portalUrl: config.publicPortalUrl,
    embedUrl: config.publicEmbedUrl,
    apiUrl: config.publicApiUrl,
    logger: opts.logger,
  };
  return { ...opts, keys, licensing, billing, portal };
}

/** The API app with every feature router mounted. */
export function createApiApp(
  services: Services,
  opts: { redis?: Redis; isShuttingDown?: () => boolean } = {},
) {
  const { config, licensing } = services;
  return createApp({
    config,
    clock: services.clock,
    logger: services.logger,
    rateLimiter: createRateLimiter({
      scale: config.RATE_LIMIT_SCALE,
      ...(opts.redis ? { redis: opts.redis } : {}),
    }),
    ping: () => services.database.ping(),
    ...(opts.isShuttingDown ? { isShuttingDown: opts.isShuttingDown } : {}),
    credentialKey: credentialRateKey(licensing),
    v1Routes: [
      createLicenseRoutes(licensing),
      createEmbedSessionRoutes({ ...licensing, embedUrl: config.publicEmbedUrl }),
      createBillingRoutes(licensing, services.billing),
      createCalculationRoutes(licensing),
      createLeadRoutes(licensing),
      ...createPortalRoutes(
        services.portal,
        createSignInLimiter({ scale: config.RATE_LIMIT_SCALE, ...(opts.redis ? { redis: opts.redis } : {}) }),
        config.TRUST_PROXY,
      ),
    ],
    rootRoutes: [
      createJwksRoutes(services.keys),
      createBillingPageRoutes(services.billing),
      createPortalPageRoutes({
        distDir: `${repoRoot()}/dist/portal`,
        apiUrl: config.publicApiUrl,
        embedUrl: config.publicEmbedUrl,
      }),
    ],
  });
}
