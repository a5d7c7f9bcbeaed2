import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { auditEvents, calculationResults, leadNotes, leads } from '../../db/engine/schema.ts';
import { insertAccount } from '../../db/repos/accounts-repo.ts';
import { insertResult } from '../../db/repos/results-repo.ts';
import { createFixedClock } from '../../lib/clock.ts';
import { createPostgresTestDatabase, createTestDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import { eraseStaleLeads, monthsBefore } from './lead-retention.ts';

const NOW = new Date('2026-11-28T12:00:00Z');

describe('monthsBefore', () => {
  it('counts calendar months; the 31st falls back to a shorter month’s end', () => {
    expect(monthsBefore(NOW, 12).toISOString()).toBe('2025-11-28T12:00:00.000Z');
    expect(monthsBefore(new Date('2026-03-31T00:00:00Z'), 1).toISOString()).toBe('2026-02-28T00:00:00.000Z');
    expect(monthsBefore(new Date('2026-01-15T08:00:00Z'), 84).toISOString()).toBe('2019-01-15T08:00:00.000Z');
  });
});

/** The retention window, the same on the embedded database and on PostgreSQL. */
function retentionSuite(open: () => Promise<{ database: Database; done: () => Promise<void> }>) {
  let database: Database;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ database, done } = await open());
  });
  afterAll(() => done());

  it('erases exactly the leads not converted N months after their last change, with their results; one trail entry', async () => {
    const db = database.db;
    const firm = await insertAccount(db, {
      id: newId('acct'),
      name: 'Windowed Firm',
      createdAt: NOW,
      leadRetentionMonths: 12,
    });
    const other = await insertAccount(db, { id: newId('acct'), name: 'Keeps Everything', createdAt: NOW });
    const cutoff = monthsBefore(NOW, 12);
    const at = (ms: number) => new Date(cutoff.getTime() + ms);
    const lead = async (
      accountId: string,
      status: 'new' | 'contacted' | 'converted' | 'lost',
      updatedAt: Date,
      withResult = false,
    ) => {
      const resultId = withResult ? newId('res') : null;
      if (resultId)
        await insertResult(db, {
          id: resultId,
          accountId,
          calculator: 'estate-tax',
          state: 'NY',
          inputs: { estateValue: 8_000_000 },
          outputs: { totalTax: 1 },
          lineItems: [],
          notes: [],
          ruleSet: { id: 'estate-tax-2026' },
          disclaimer: 'd',
          createdAt: updatedAt,
        });
      const [row] = await db
        .insert(leads)
        .values({
          id: newId('lead'),
          accountId,
          calculator: 'estate-tax',
          resultId,
          name: 'Ana Ruiz',
          email: 'ana@example.com',
          state: 'NY',
          status,
          ...(status === 'lost' ? { lostReason: 'no_answer' } : {}),
          consentText: 'I agree.',
          consentedAt: updatedAt,
          createdAt: new Date(updatedAt.getTime() - 86_400_000),
          updatedAt,
        })
        .returning();
      return row!;
    };
    const stale = await lead(firm.id, 'new', at(-1), true);
    const staleLost = await lead(firm.id, 'lost', at(-86_400_000));
    const staleContacted = await lead(firm.id, 'contacted', new Date('2019-01-01T00:00:00Z'));
    const atCutoff = await lead(firm.id, 'new', at(0));
    const recent = await lead(firm.id, 'contacted', at(86_400_000));
    const converted = await lead(firm.id, 'converted', new Date('2020-01-01T00:00:00Z'), true);
    const noted = await lead(firm.id, 'contacted', at(-86_400_000));
    await db.insert(leadNotes).values({
      id: newId('note'),
      accountId: firm.id,
      leadId: noted.id,
      author: 'user:a@firm.example',
      body: 'Called again; still deciding.',
      createdAt: at(86_400_000),
    });
    const otherFirm = await lead(other.id, 'new', new Date('2019-01-01T00:00:00Z'));

    const erased = await eraseStaleLeads({ db, clock: createFixedClock(NOW) });
    expect(erased).toBe(3);
    const left = (await db.select({ id: leads.id }).from(leads)).map((r) => r.id).sort();
    expect(left).toEqual([atCutoff.id, recent.id, converted.id, noted.id, otherFirm.id].sort());
    expect(left).not.toContain(stale.id);
    expect(left).not.toContain(staleLost.id);
    expect(left).not.toContain(staleContacted.id);
    // Its result went with it; the converted lead's stayed.
    const results = (await db.select({ id: calculationResults.id }).from(calculationResults)).map(
      (r) => r.id,
    );
    expect(results).toEqual([converted.resultId]);
    const trail = await db.select().from(auditEvents).where(eq(auditEvents.accountId, firm.id));
    expect(trail.map((e) => [e.action, e.actor, e.data])).toEqual([
      ['leads.retention_erased', 'retention', { leads: 3, months: 12, before: cutoff.toISOString() }],
    ]);
    // A second pass finds nothing more and writes nothing.
    expect(await eraseStaleLeads({ db, clock: createFixedClock(NOW) })).toBe(0);
    expect(await db.select().from(auditEvents).where(eq(auditEvents.accountId, firm.id))).toHaveLength(1);
  });
}

describe('the retention window on PGlite', () => {
  retentionSuite(async () => {
    const database = await createTestDatabase();
    return { database, done: () => database.close() };
  });
});

needs('postgres').describe('the retention window on PostgreSQL (PostgreSQL)', () => {
  retentionSuite(async () => {
    const { database, drop } = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    return { database, done: drop };
  });
});

describe('the setting', () => {
  it('is off (null) or 3 to 84 whole months', async () => {
    const { AccountUpdateSchema } = await import('../accounts/settings.ts');
    const ok = (v: unknown) => AccountUpdateSchema.safeParse({ leadRetentionMonths: v }).success;
    expect([null, 3, 12, 84].map(ok)).toEqual([true, true, true, true]);
    expect([2, 85, 12.5, '12'].map(ok)).toEqual([false, false, false, false]);
  });
});
