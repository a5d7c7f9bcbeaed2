import { recordAudit } from '../../db/repos/audit-repo.ts';
import { accountsWithLeadRetention, staleLeadIds } from '../../db/repos/lead-retention-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { LicensingDeps } from '../deps.ts';
import { deleteLead } from './privacy.ts';

/** Leads erased per firm and pass; the hourly pass takes the rest of a backlog next time. */
const BATCH = 500;

/** `months` calendar months before `now` (UTC); the 31st of a short month falls back to its end. */
export function monthsBefore(now: Date, months: number): Date {
  const d = new Date(now);
  const day = d.getUTCDate();
  d.setUTCDate(1);
  d.setUTCMonth(d.getUTCMonth() - months);
  const last = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + 1, 0)).getUTCDate();
  d.setUTCDate(Math.min(day, last));
  return d;
}

/**
 * A firm's retention window (Settings → Firm, off by default, 3 to 84 months): every lead that is
 * not converted and has not changed (status, or a note) for that long is erased as a deletion
 * erases it — its result, consent evidence, events, deliveries and mails with it. Each firm gets
 * one activity entry per pass with the count. Safe on several instances at once: a lead another
 * instance erased first is simply not found.
 */
export async function eraseStaleLeads(deps: Pick<LicensingDeps, 'db' | 'clock'>): Promise<number> {
  let erased = 0;
  for (const firm of await accountsWithLeadRetention(deps.db)) {
    const cutoff = monthsBefore(deps.clock.now(), firm.months);
    const ids = await staleLeadIds(deps.db, firm.id, cutoff, BATCH);
    let count = 0;
    for (const id of ids) {
      try {
        await deleteLead(deps, id, { accountId: firm.id, actor: 'retention', trail: false });
        count++;
      } catch (error) {
        if (!(error instanceof AppError && error.code === 'NOT_FOUND')) throw error;
      }
    }
    if (count > 0)
      await recordAudit(deps.db, {
        accountId: firm.id,
        actor: 'retention',
        action: 'leads.retention_erased',
        data: { leads: count, months: firm.months, before: cutoff.toISOString() },
        at: deps.clock.now(),
      });
    erased += count;
  }
  return erased;
}
