import type { Db } from '../../db/engine/database.ts';
import { lockUntilCommit } from '../../db/repos/advisory-locks-repo.ts';
import {
  countBlockLeadsSince,
  countLiveLeadsSince,
  countNetworkLeadsSince,
} from '../../db/repos/leads-repo.ts';
import { blockOf, NETWORK_WINDOW_MS, type QuarantineReason, spamSignals } from './spam-signals.ts';

const DAY_MS = 86_400_000;

export interface Triage {
  /** Empty: the lead is live. Otherwise it is stored held, with these reasons. */
  reasons: QuarantineReason[];
  /** Live, but its alert and webhook go into the hour's digest (past the plan's daily figure). */
  digest: boolean;
  /** Over the daily figure (the first such lead writes the ceiling alert). */
  overQuota: boolean;
}

/**
 * The spam rule, decided per lead before it is stored:
 * - held (quarantined) only for its own signals: its network sent this license NETWORK_BURST
 *   leads in the last hour already (or its IPv6 /48 BLOCK_BURST), a link in the name, a throwaway
 *   e-mail domain;
 * - otherwise live. Under the plan's daily figure it is alerted on its own; past it, a lead from
 *   a network this license has not heard from in 24 hours (a fresh visitor) still is, and the
 *   others are grouped into one digest per hour. The license's total never holds a lead back.
 *
 * Runs inside the lead's transaction (`db`), after taking the advisory locks of (license, network)
 * and then (license, /48), always in that order: leads sent at once from one network are counted
 * one after another, on every instance sharing the database, as if they came in turn.
 */
export async function triageLead(
  db: Db,
  input: {
    licenseId: string;
    sourceNet: string | null;
    name: string;
    email: string;
    quota: number;
    now: Date;
  },
): Promise<Triage> {
  const { licenseId, sourceNet, now } = input;
  const since = (ms: number) => new Date(now.getTime() - ms);
  const block = blockOf(sourceNet);
  if (sourceNet) await lockUntilCommit(db, `lead-net:${licenseId}:${sourceNet}`);
  if (block) await lockUntilCommit(db, `lead-block:${licenseId}:${block}`);
  const lastHour = sourceNet
    ? await countNetworkLeadsSince(db, licenseId, sourceNet, since(NETWORK_WINDOW_MS))
    : 0;
  const blockLastHour = block
    ? await countBlockLeadsSince(db, licenseId, block, since(NETWORK_WINDOW_MS))
    : 0;
  const reasons = spamSignals(input, lastHour, blockLastHour);
  const live = await countLiveLeadsSince(db, licenseId, since(DAY_MS));
  const overQuota = live >= input.quota;
  if (reasons.length > 0 || !overQuota) return { reasons, digest: false, overQuota };
  const fresh =
    sourceNet !== null && (await countNetworkLeadsSince(db, licenseId, sourceNet, since(DAY_MS))) === 0;
  return { reasons, digest: !fresh, overQuota };
}
