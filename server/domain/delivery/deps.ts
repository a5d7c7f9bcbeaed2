import type { Logger } from 'pino';
import type { Clock } from '../../clock.ts';
import type { Db } from '../../db/database.ts';
import type { Config } from '../../env.ts';
import { createMailer, type Mailer, outboxDirOf } from '../../mail/mailer.ts';
import type { LookupCaches } from '../caches/lookup-caches.ts';
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
    mailer: createMailer({ smtpUrl: config.SMTP_URL, outboxDir: outboxDirOf(config.DATA_DIR) }),
    mailFrom: config.MAIL_FROM,
    // The portal's own origin: where the session cookie and passkeys live (PUBLIC_API_URL may differ).
    portalUrl: `${config.publicPortalUrl}/portal`,
    resultRetentionDays: config.RESULT_RETENTION_DAYS,
    accountCloseGraceDays: config.ACCOUNT_CLOSE_GRACE_DAYS,
  };
}
