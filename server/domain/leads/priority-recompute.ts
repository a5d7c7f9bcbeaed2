import { type Db, withTransaction } from '../../db/engine/database.ts';
import { tryLockUntilCommit } from '../../db/repos/advisory-locks-repo.ts';
import { leadsToRate, setLeadRating } from '../../db/repos/priority-recompute-repo.ts';
import { priorityVersionOf, ratedCalculators, rateLead } from './lead-priority.ts';

const LOCK = 'svc:priority-recompute';

/**
 * Re-rates leads whose priority was worked out by an older rule table (or never: leads stored
 * before priorities existed): priority only, from the result as stored — the figures are never
 * computed again. Batches of `batch` leads, each in its own transaction under an advisory lock
 * taken without waiting, so one instance of a cluster works at a time and the others skip; every
 * batch commits, so a restart resumes where the last one stopped. A lead its rules cannot read is
 * marked as seen under the current version with no priority ("not rated"). Until the job reaches
 * a lead, its view shows no priority (lead-priority.ts, `priorityOf`). Returns how many it rated.
 */
export async function recomputePriorities(
  deps: { db: Db },
  opts: { batch?: number; maxBatches?: number } = {},
): Promise<number> {
  const batch = opts.batch ?? 500;
  let batches = opts.maxBatches ?? 20;
  let rated = 0;
  for (const calculator of ratedCalculators()) {
    const version = priorityVersionOf(calculator)!;
    while (batches > 0) {
      batches--;
      const done = await withTransaction(deps.db, async (tx) => {
        if (!(await tryLockUntilCommit(tx, LOCK))) return -1;
        const rows = await leadsToRate(tx, calculator, version, batch);
        for (const row of rows) {
          const rating = rateLead(row.result);
          await setLeadRating(tx, row.id, {
            priorityRank: rating.priorityRank,
            priorityReasons: rating.priorityReasons,
            priorityVersion: version,
            ...(row.valueAmount === null ? { valueAmount: rating.valueAmount } : {}),
          });
        }
        return rows.length;
      });
      if (done < 0) return rated; // another instance is at it
      rated += done;
      if (done < batch) break;
    }
  }
  return rated;
}
