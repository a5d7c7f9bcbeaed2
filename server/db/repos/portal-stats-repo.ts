import { and, count, eq, gte, lt } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { leads } from '../engine/schema.ts';

/** Leads of a firm created in [from, to), test data left out. */
export async function countLeadsBetween(db: Db, accountId: string, from: Date, to: Date): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(leads)
    .where(
      and(
        eq(leads.accountId, accountId),
        eq(leads.test, false),
        gte(leads.createdAt, from),
        lt(leads.createdAt, to),
      ),
    );
  return Number(row?.n ?? 0);
}
