import { count, eq, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { mailMessages, outboxEvents, webhookDeliveries } from '../engine/schema.ts';

export type OutboxEventRow = typeof outboxEvents.$inferSelect;
export type NewDelivery = typeof webhookDeliveries.$inferInsert;
export type NewMail = typeof mailMessages.$inferInsert;

/** One event; its deliveries and mails are written beside it, in the caller's transaction. */
export async function insertOutboxEvent(tx: Db, values: typeof outboxEvents.$inferInsert): Promise<void> {
  await tx.insert(outboxEvents).values(values);
}

export async function findOutboxEvent(db: Db, id: string): Promise<OutboxEventRow | undefined> {
  const [row] = await db.select().from(outboxEvents).where(eq(outboxEvents.id, id));
  return row;
}

/** Queues deliveries (one statement for all of them). */
export async function insertDeliveries(tx: Db, rows: NewDelivery[]): Promise<void> {
  await tx.insert(webhookDeliveries).values(rows);
}

/** Queues one delivery and returns its row. */
export async function insertDelivery(db: Db, values: NewDelivery) {
  const [row] = await db.insert(webhookDeliveries).values(values).returning();
  return row!;
}

export async function insertMail(tx: Db, values: NewMail): Promise<void> {
  await tx.insert(mailMessages).values(values);
}

/** Deliveries waiting in the outbox (webhooks or alert mails not yet sent or given up). */
export async function countPending(db: Db, what: 'webhooks' | 'mails'): Promise<number> {
  const table = what === 'webhooks' ? webhookDeliveries : mailMessages;
  const [row] = await db.select({ n: count() }).from(table).where(eq(table.status, 'pending'));
  return row?.n ?? 0;
}

/**
 * Adds a lead to a `leads.digest` event before it is sent: `count` goes up by one and the id joins
 * `leadIds` (the first `maxIds`). One UPDATE, so leads joining at once each count.
 */
export async function addLeadToDigestEvent(db: Db, eventId: string, leadId: string, maxIds: number) {
  await db
    .update(outboxEvents)
    .set({
      payload: sql`jsonb_set(jsonb_set(${outboxEvents.payload}, '{data,count}',
        to_jsonb(coalesce((${outboxEvents.payload}->'data'->>'count')::int, 0) + 1)),
        '{data,leadIds}',
        case when jsonb_array_length(coalesce(${outboxEvents.payload}->'data'->'leadIds', '[]'::jsonb)) < ${maxIds}
          then coalesce(${outboxEvents.payload}->'data'->'leadIds', '[]'::jsonb) || to_jsonb(${leadId}::text)
          else ${outboxEvents.payload}->'data'->'leadIds' end)`,
    })
    .where(eq(outboxEvents.id, eventId));
}
