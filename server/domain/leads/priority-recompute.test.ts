import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCalculator } from '../../../calculators/index.ts';
import type { Database } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { calculationResults, leads } from '../../db/engine/schema.ts';
import { insertAccount } from '../../db/repos/accounts-repo.ts';
import { findLead } from '../../db/repos/leads-repo.ts';
import { insertResult } from '../../db/repos/results-repo.ts';
import { createTestDatabase } from '../../test-support/db.ts';
import { toLeadView } from './intake.ts';
import { recomputePriorities } from './priority-recompute.ts';

const NOW = new Date('2026-09-01T12:00:00Z');
let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

describe('the priority recompute', () => {
  it('re-rates leads of an older or no rule table in resumable batches, priority only; until then they read as not rated', async () => {
    const db = database.db;
    const account = await insertAccount(db, { id: newId('acct'), name: 'F', createdAt: NOW });
    const stored = async (estateValue: number, version: string | null) => {
      const run = runCalculator(
        'estate-tax',
        { estateValue, state: 'WA', dateOfDeath: '2026-08-01' },
        { now: NOW },
      );
      if (!run.ok) throw new Error('refused');
      const result = await insertResult(db, {
        id: newId('res'),
        accountId: account.id,
        calculator: 'estate-tax',
        state: 'WA',
        inputs: run.inputs,
        outputs: run.result.outputs,
        lineItems: run.result.lineItems,
        notes: run.result.notes,
        ruleSet: run.result.ruleSet as unknown as Record<string, unknown>,
        disclaimer: run.result.disclaimer,
        createdAt: NOW,
      });
      const [row] = await db
        .insert(leads)
        .values({
          id: newId('lead'),
          accountId: account.id,
          calculator: 'estate-tax',
          resultId: result.id,
          name: 'Ana',
          email: 'ana@example.com',
          state: 'WA',
          status: 'contacted',
          consentText: 'I agree.',
          consentedAt: NOW,
          createdAt: NOW,
          updatedAt: NOW,
          ...(version ? { priorityRank: 1, priorityReasons: ['old words'], priorityVersion: version } : {}),
        })
        .returning();
      return { lead: row!, result };
    };
    const old = await stored(12_000_000, 'estate-tax.0');
    const never = await stored(2_000_000, null);
    const current = await stored(4_000_000, 'estate-tax.1');
    // Before the job: the old rating is not shown (not rated yet), nor is a missing one.
    expect(toLeadView({ ...old.lead, result: old.result })).not.toHaveProperty('priority');
    expect(toLeadView({ ...never.lead, result: never.result })).not.toHaveProperty('priority');

    // One lead a batch, one batch a pass: it resumes where it stopped.
    expect(await recomputePriorities({ db }, { batch: 1, maxBatches: 1 })).toBe(1);
    expect(await recomputePriorities({ db }, { batch: 1, maxBatches: 5 })).toBe(1);
    expect(await recomputePriorities({ db })).toBe(0);

    const after = await findLead(db, account.id, old.lead.id);
    expect(toLeadView({ ...after!, result: old.result }).priority).toMatchObject({
      level: 'high',
      ruleVersion: 'estate-tax.1',
    });
    const filled = await findLead(db, account.id, never.lead.id);
    expect(filled).toMatchObject({ priorityRank: 1, priorityVersion: 'estate-tax.1', valueAmount: 0 });
    // Nothing else changed: not the status, not the times, not the figures, not the current one.
    expect(after).toMatchObject({ status: 'contacted', updatedAt: NOW });
    const [figures] = await db
      .select()
      .from(calculationResults)
      .where(eq(calculationResults.id, old.result.id));
    expect(figures!.outputs).toEqual(old.result.outputs);
    expect(await findLead(db, account.id, current.lead.id)).toMatchObject({ priorityReasons: ['old words'] });
  });
});
