import { eq } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { stripeEvents } from '../engine/schema.ts';

export type StripeEventRow = typeof stripeEvents.$inferSelect;

export async function findStripeEvent(db: Db, id: string): Promise<StripeEventRow | undefined> {
  const [row] = await db.select().from(stripeEvents).where(eq(stripeEvents.id, id));
  return row;
}

/**
 * Records an event id; false when it was recorded before (a replay, or a concurrent delivery of
 * the same event on another instance). Run it in the transaction that applies the event.
 */
export async function claimStripeEvent(db: Db, values: typeof stripeEvents.$inferInsert): Promise<boolean> {
  const rows = await db
    .insert(stripeEvents)
    .values(values)
    .onConflictDoNothing({ target: stripeEvents.id })
    .returning({ id: stripeEvents.id });
  return rows.length === 1;
}
