import { deleteSpentPortalMails } from '../../db/repos/portal-mails-repo.ts';
import {
  deleteDeliveryLogs,
  deleteExpiredIdempotencyKeys,
  deleteExpiredRefreshFamilies,
  deleteOldAuthCodes,
  deleteOldResults,
} from '../../db/repos/retention-repo.ts';
import { removeMailFiles } from '../../mail/mail-files.ts';
import { purgeClosedAccounts } from '../accounts/closure.ts';
import { eraseStaleLeads } from '../leads/lead-retention.ts';
import { recomputePriorities } from '../leads/priority-recompute.ts';
import type { DeliveryDeps } from './deps.ts';
import { cancelLongWaitingDeliveries } from './destination-health.ts';

const DAY_MS = 86_400_000;
/** Delivery logs (events, deliveries, attempts, sent alert mails) are kept this long. */
const DELIVERY_LOG_DAYS = 30;
/** A connect code lives 60 s; a used or expired one is kept a day for reuse detection, then purged. */
const AUTH_CODE_KEEP_MS = DAY_MS;

type Deps = Pick<DeliveryDeps, 'db' | 'clock' | 'resultRetentionDays' | 'accountCloseGraceDays'>;

export interface RetentionReport {
  results: number;
  idempotencyKeys: number;
  connectCodes: number;
  refreshTokens: number;
  deliveryLogs: number;
  mails: number;
  /** Sign-in and invitation mails whose links have expired (rows and outbox files). */
  portalMails: number;
  accountsDeleted: number;
  /** Leads that waited 7 days on a disabled CRM destination, cancelled (kept for replay). */
  destinationWaitsCancelled: number;
  /** Leads erased by firms' retention windows (not converted N months after their last change). */
  leadsErased: number;
  /** Leads re-rated after a priority rule table changed (at most 10,000 a pass). */
  prioritiesRated: number;
}

/**
 * One pass of the retention rules (docs/operations.md, "What is kept, for how long, and why"). Safe to run on
 * several instances at once: every rule is a DELETE with a date condition.
 */
export async function runRetention(deps: Deps): Promise<RetentionReport> {
  const now = deps.clock.now();
  const ago = (ms: number) => new Date(now.getTime() - ms);
  const db = deps.db;
  const results = await deleteOldResults(db, ago(deps.resultRetentionDays * DAY_MS));
  const keys = await deleteExpiredIdempotencyKeys(db, now);
  const codes = await deleteOldAuthCodes(db, ago(AUTH_CODE_KEEP_MS));
  // A family goes only when its newest token has expired: until then reuse detection needs it.
  const tokens = await deleteExpiredRefreshFamilies(db, now);
  const { logs, mails } = await purgeDeliveryLogs(deps, ago(DELIVERY_LOG_DAYS * DAY_MS));
  // Their links are dead: the files in DATA_DIR/outbox would only hold a person's address.
  const portalMailFiles = await deleteSpentPortalMails(db, now);
  removeMailFiles(portalMailFiles);
  const accountsDeleted = await purgeClosedAccounts(deps);
  const destinationWaitsCancelled = await cancelLongWaitingDeliveries(deps);
  const leadsErased = await eraseStaleLeads(deps);
  // Not a retention rule, but the same hourly, any-instance, resumable kind of sweep.
  const prioritiesRated = await recomputePriorities(deps);
  return {
    results,
    idempotencyKeys: keys,
    connectCodes: codes,
    refreshTokens: tokens,
    deliveryLogs: logs,
    mails,
    portalMails: portalMailFiles.length,
    accountsDeleted,
    destinationWaitsCancelled,
    leadsErased,
    prioritiesRated,
  };
}

/**
 * Events older than the cutoff with nothing left to send go, and with them (by cascade) their
 * deliveries, attempt logs and alert mails; mail files are removed after the commit.
 */
async function purgeDeliveryLogs(deps: Deps, cutoff: Date): Promise<{ logs: number; mails: number }> {
  const { ids, files, mails } = await deleteDeliveryLogs(deps.db, cutoff);
  removeMailFiles(files);
  return { logs: ids.length, mails };
}
