import { type Db, withTransaction } from '../../db/engine/database.ts';
import {
  closuresDue,
  deleteAccountRows,
  mailFilesOfAccount,
  openClosure,
  stopAccountActivity,
} from '../../db/repos/account-closure-repo.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { removeMailFiles } from '../../mail/mail-files.ts';
import { invalidateCaches, type LookupCaches } from '../caches/lookup-caches.ts';

/** The database, the clock, the grace period before a closed firm's data goes, and the caches to drop. */
interface Deps {
  db: Db;
  clock: Clock;
  accountCloseGraceDays: number;
  caches?: LookupCaches;
}

/**
 * `account close`: everything stops now — licenses and API keys are revoked (widgets and tokens
 * fail on their next request), webhook endpoints are disabled and pending deliveries and mails
 * cancelled — and all of the firm's data is deleted once the grace period has passed (the
 * retention job does it), so an account closed by mistake can still be recovered by the operator.
 * Closing twice returns the first closure.
 */
export async function closeAccount(deps: Deps, accountId: string, actor = 'admin') {
  const now = deps.clock.now();
  const closed = await withTransaction(deps.db, async (tx) => {
    if (!(await findAccountById(tx, accountId))) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
    const deleteAfter = new Date(now.getTime() + deps.accountCloseGraceDays * 86_400_000);
    const { closure, created } = await openClosure(tx, { accountId, requestedAt: now, deleteAfter, actor });
    if (created) {
      await stopAccountActivity(tx, accountId, now);
      await recordAudit(tx, {
        accountId,
        actor,
        action: 'account.closed',
        subject: accountId,
        data: { deleteAfter: deleteAfter.toISOString() },
        at: now,
      });
    }
    return {
      accountId,
      closedAt: closure.requestedAt.toISOString(),
      deleteAfter: closure.deleteAfter.toISOString(),
      graceDays: deps.accountCloseGraceDays,
    };
  });
  await invalidateCaches(deps);
  return closed;
}

// Which tables an account's deletion empties, and the deletion itself, live with the queries.
export { ACCOUNT_DATA_TABLES } from '../../db/repos/account-closure-repo.ts';

/** Deletes the accounts whose grace period is over; one audit line each, with the id only. */
export async function purgeClosedAccounts(deps: Deps): Promise<number> {
  const now = deps.clock.now();
  const due = await closuresDue(deps.db, now);
  for (const closure of due) {
    const files = await withTransaction(deps.db, async (tx) => {
      const paths = await mailFilesOfAccount(tx, closure.accountId);
      await deleteAccountRows(tx, closure.accountId);
      await recordAudit(tx, {
        actor: 'retention',
        action: 'account.deleted',
        subject: closure.accountId,
        at: now,
      });
      return paths;
    });
    removeMailFiles(files);
  }
  if (due.length) await invalidateCaches(deps);
  return due.length;
}
