import type { RuleChange } from '../../../calculators/rules-changelog.ts';
import type { Db } from '../../db/engine/database.ts';
import { dismissRuleNotice, openRuleNoticesOf } from '../../db/repos/rule-changes-repo.ts';
import { AppError } from '../../lib/errors.ts';

/** The rule changes a firm was told of and has not dismissed: the portal's banner. */
export async function firmRuleNotices(db: Db, accountId: string) {
  const rows = await openRuleNoticesOf(db, accountId);
  return {
    data: rows.map((r) => ({
      ...(r.change as unknown as Omit<RuleChange, 'announce'>),
      toldAt: r.createdAt.toISOString(),
    })),
  };
}

/** Dismisses one notice for the whole firm. Another firm's or an unknown id is NOT_FOUND. */
export async function dismissFirmRuleNotice(db: Db, accountId: string, changeId: string, at: Date) {
  if (!(await dismissRuleNotice(db, accountId, changeId, at)))
    throw new AppError('NOT_FOUND', 'No such rule notice.');
}
