import { RULE_CHANGES, type RuleChange } from '../../../calculators/rules-changelog.ts';
import { type Db, withTransaction } from '../../db/engine/database.ts';
import {
  firmsUsingCalculators,
  insertRuleNotices,
  recordRuleChangeOnce,
  setFirmsTold,
} from '../../db/repos/rule-changes-repo.ts';
import type { WebhookBody } from '../outbox/event-types.ts';
import { enqueueEvent } from '../outbox/outbox.ts';

/** A firm is touched by a change when it used the calculator (and state) within this window. */
const AFFECTED_WINDOW_DAYS = 365;

/** What a `rules.updated` event carries: the change as the changelog records it. */
const ruleChangeEventData = (change: RuleChange) => ({
  id: change.id,
  date: change.date,
  kind: change.kind,
  figure: change.figure,
  before: change.before,
  after: change.after,
  status: change.status,
  source: change.source,
  calculators: [...change.calculators],
  states: [...change.states],
  summary: change.summary,
});

export interface AnnounceOutcome {
  /** Changes this process recorded (and, unless marked otherwise, announced). */
  recorded: string[];
  /** Firms told, by change id. */
  told: Record<string, string[]>;
}

/**
 * Records every changelog entry not yet recorded and tells the firms it touches: a portal notice
 * and a `rules.updated` event to each endpoint that chose it. Each entry is one transaction whose
 * first statement inserts it by its stable id; only the process whose insert went in goes on, so
 * several workers or instances starting together announce each change once, and a crash before
 * the commit leaves the change unrecorded for the next start to announce. Stored results and leads
 * are never recomputed.
 */
export async function announceRuleChanges(
  db: Db,
  now: Date,
  changes: readonly RuleChange[] = RULE_CHANGES,
): Promise<AnnounceOutcome> {
  const outcome: AnnounceOutcome = { recorded: [], told: {} };
  const since = new Date(now.getTime() - AFFECTED_WINDOW_DAYS * 86_400_000);
  // Oldest first, so notices and events reach a firm in the order the changes were made.
  const ordered = [...changes].sort((a, b) => (a.date < b.date ? -1 : a.date > b.date ? 1 : 0));
  for (const change of ordered) {
    await withTransaction(db, async (tx) => {
      const mine = await recordRuleChangeOnce(tx, {
        id: change.id,
        change: ruleChangeEventData(change),
        recordedAt: now,
      });
      if (!mine) return;
      outcome.recorded.push(change.id);
      if (change.announce === false) return;
      const firms = await firmsUsingCalculators(tx, {
        calculators: change.calculators,
        states: change.states,
        since,
      });
      await insertRuleNotices(
        tx,
        firms.map((accountId) => ({ accountId, changeId: change.id, createdAt: now })),
      );
      for (const accountId of firms) {
        await enqueueEvent(tx, {
          accountId,
          type: 'rules.updated',
          data: ruleChangeEventData(change) satisfies Extract<WebhookBody, { type: 'rules.updated' }>['data'],
          test: false,
          quarantined: false,
          at: now,
        });
      }
      await setFirmsTold(tx, change.id, firms.length);
      outcome.told[change.id] = firms;
    });
  }
  return outcome;
}

/**
 * Test stacks only: `SVC_TEST_RULE_CHANGES` (a JSON array of changelog entries) is added to the
 * changelog, so a test can start real servers with "a release that changes one figure". Refused
 * with NODE_ENV=production, where only the changelog in the code is announced.
 */
export function changelogWith(raw: string | undefined, nodeEnv: string): readonly RuleChange[] {
  if (raw === undefined || raw.trim() === '') return RULE_CHANGES;
  if (nodeEnv === 'production') throw new Error('SVC_TEST_RULE_CHANGES is refused with NODE_ENV=production');
  const extra = JSON.parse(raw) as RuleChange[];
  if (!Array.isArray(extra) || extra.some((c) => typeof c?.id !== 'string' || typeof c.date !== 'string'))
    throw new Error('SVC_TEST_RULE_CHANGES must be a JSON array of rule changes');
  return [...RULE_CHANGES, ...extra];
}
