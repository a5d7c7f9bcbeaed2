import type { Logger } from 'pino';
import type { Db } from '../../db/engine/database.ts';
import type { Config } from '../../infra/env.ts';
import type { Clock } from '../../lib/clock.ts';
import { createMailer, type Mailer, outboxDirOf } from '../../mail/mailer.ts';
import type { LookupCaches } from '../caches/lookup-caches.ts';
import type { DestinationBaseUrls } from '../destinations/base-urls.ts';
import type { PlanTable } from '../licensing/plans.ts';
import { type Resolver, systemResolver } from './ssrf-guard.ts';

/** What lead delivery needs; built once per process from configuration (see `deliveryDepsFrom`). */
export interface DeliveryDeps {
  db: Db;
  clock: Clock;
  /** Encrypts webhook signing secrets at rest (the instance secret key). */
  secretKey: Buffer;
  logger: Logger;
  resolver: Resolver;
  allowPrivateHosts: readonly string[];
  timeoutMs: number;
  /**
   * `DESTINATION_BASE_URLS`: vendors whose CRM destinations go to another scheme and host (tests,
   * staging). Only the hosts named here may be private, and only for destinations.
   */
  destinationBaseUrls?: DestinationBaseUrls;
  /**
   * Webhook attempts one instance keeps in flight (C); one firm gets at most max(2, C/4) of them.
   * Default 16.
   */
  concurrency?: number;
  /** Alert mails one instance sends at once, in its own loop. Default 4. */
  mailConcurrency?: number;
  /** How long a claimed mail stays claimed; renewed while it is being sent. Default 60 s. */
  mailLeaseMs?: number;
  /** The plan table (endpoint limits); the built-in one when absent. */
  plans?: PlanTable;
  mailer: Mailer;
  mailFrom: string;
  /** Where the alert mail links to (the portal's lead page lives under it). */
  portalUrl: string;
  resultRetentionDays: number;
  accountCloseGraceDays: number;
  random?: () => number;
  /** Invalidated when an account is closed or deleted. */
  caches?: LookupCaches;
  /**
   * Queued sign-in mails (the portal's, `sendSignInMails`), sent by this same loop; returns how many
   * it handled. Set by `createServices`, which knows the portal's deps.
   */
  sendPortalMails?: () => Promise<number>;
}

/** Delivery deps from configuration: SMTP or DATA_DIR/outbox, the system resolver, the limits. */
export function createDeliveryDeps(opts: {
  db: Db;
  clock: Clock;
  secretKey: Buffer;
  logger: Logger;
  config: Config;
}): DeliveryDeps {
  const { config } = opts;
  return {
    db: opts.db,
    clock: opts.clock,
    secretKey: opts.secretKey,
    logger: opts.logger,
    resolver: systemResolver,
    allowPrivateHosts: config.WEBHOOK_ALLOW_PRIVATE_HOSTS,
    timeoutMs: config.WEBHOOK_TIMEOUT_MS,
    destinationBaseUrls: config.DESTINATION_BASE_URLS.bases,
    plans: config.plans,
    concurrency: config.DELIVERY_CONCURRENCY,
    mailConcurrency: config.MAIL_CONCURRENCY,
    mailer: createMailer({ smtpUrl: config.SMTP_URL, outboxDir: outboxDirOf(config.DATA_DIR) }),
    mailFrom: config.MAIL_FROM,
    // The portal's own origin: where the session cookie and passkeys live (PUBLIC_API_URL may differ).
    portalUrl: `${config.publicPortalUrl}/portal`,
    resultRetentionDays: config.RESULT_RETENTION_DAYS,
    accountCloseGraceDays: config.ACCOUNT_CLOSE_GRACE_DAYS,
  };
}
