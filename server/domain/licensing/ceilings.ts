import type { AuditAction } from '../../../protocol/audit-actions.ts';
import { hasAuditSince, recordAudit } from '../../db/repos/audit-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { LicensingDeps } from '../deps.ts';
import { DEFAULT_PLANS, findPlan, type Plan, type PlanTable } from './plans.ts';

/** Counters the ceilings need; the HTTP rate limiter provides them (shared through Redis). */
export interface CeilingCounters {
  count(name: string, key: string, windowSeconds: number): Promise<number>;
  peek(name: string, key: string, windowSeconds: number): Promise<number>;
  /** Consumes one unit of the tight per-IP budget; false when it is spent. */
  tight(key: string): Promise<{ allowed: boolean; resetMs: number }>;
}

export interface LicenseRef {
  id: string;
  accountId: string;
  plan: string;
}

const WINDOW_SECONDS = 60;
const ALERT_EVERY_MS = 3_600_000;

/**
 * The plan a license's ceilings come from. A plan name missing from the table (renamed in `PLANS`)
 * gets the most generous plan: a configuration slip must never lock a firm's visitors out.
 */
export function planOf(plans: PlanTable | undefined, name: string): Plan {
  const table = plans ?? DEFAULT_PLANS;
  return (
    findPlan(table, name) ??
    (Object.values(table).sort((a, b) => b.sessionsPerMinute - a.sessionsPerMinute)[0] ??
      DEFAULT_PLANS.agency)!
  );
}

/**
 * Per-license ceilings (trust model). Crossing the plan's sessions-per-minute never refuses real
 * visitors outright: for the rest of that minute every client IP of the license gets the small
 * `tight` budget (a person opens a session or two a minute, a script hundreds), and an alert is
 * written to the audit log (at most hourly). Embed-token calls of a license over its ceiling use
 * the same tight budget.
 */
export function createLicenseCeilings(deps: LicensingDeps, counters: CeilingCounters) {
  const overKey = (licenseId: string) => `sessions:${licenseId}`;

  async function spendTight(licenseId: string, ipKey: string): Promise<void> {
    const { allowed, resetMs } = await counters.tight(`${licenseId}:${ipKey}`);
    if (allowed) return;
    const retryAfter = String(Math.max(1, Math.ceil(resetMs / 1000)));
    throw new AppError(
      'RATE_LIMITED',
      `Too many requests for this widget. Retry after ${retryAfter} seconds.`,
      {
        headers: { 'Retry-After': retryAfter },
      },
    );
  }

  return {
    /**
     * An embed session of `license` from `ipKey` is about to be issued. `counted` is the license's
     * sessions this minute when the rate limiter has just counted this one (`sessionsCounter`).
     */
    async session(license: LicenseRef, ipKey: string, counted?: number): Promise<void> {
      const ceiling = planOf(deps.plans, license.plan).sessionsPerMinute;
      const count =
        counted ?? (await counters.count('license-sessions', overKey(license.id), WINDOW_SECONDS));
      if (count <= ceiling) return;
      if (count === ceiling + 1) await alert(deps, license, 'ceiling.sessions_per_minute', { ceiling });
      await spendTight(license.id, ipKey);
    },
    /**
     * The counter `embedCall` compares with the ceiling and `session` counts (the rate limiter
     * reads it, or counts a session, in its own round trip).
     */
    sessionsCounter: (licenseId: string) => ({
      name: 'license-sessions',
      key: overKey(licenseId),
      windowSeconds: WINDOW_SECONDS,
    }),
    /**
     * A calculation, PDF or lead with an embed token of `licenseId` from `ipKey`; `sessions` is the
     * license's sessions this minute when the caller has just read them.
     */
    async embedCall(licenseId: string, plan: string, ipKey: string, sessions?: number): Promise<void> {
      const ceiling = planOf(deps.plans, plan).sessionsPerMinute;
      const count = sessions ?? (await counters.peek('license-sessions', overKey(licenseId), WINDOW_SECONDS));
      if (count <= ceiling) return;
      await spendTight(licenseId, ipKey);
    },
  };
}

export type LicenseCeilings = ReturnType<typeof createLicenseCeilings>;

/** Writes a ceiling alert to the audit log, at most once an hour per license and kind. */
export async function alert(
  deps: LicensingDeps,
  license: LicenseRef,
  action: Extract<AuditAction, `ceiling.${string}`>,
  data: Record<string, unknown>,
): Promise<void> {
  const now = deps.clock.now();
  if (await hasAuditSince(deps.db, action, license.id, new Date(now.getTime() - ALERT_EVERY_MS))) return;
  await recordAudit(deps.db, {
    accountId: license.accountId,
    actor: 'limits',
    action,
    subject: license.id,
    data,
    at: now,
  });
}
