import {
  and,
  asc,
  count,
  desc,
  eq,
  exists,
  gt,
  inArray,
  isNull,
  lte,
  notInArray,
  or,
  type SQL,
  sql,
} from 'drizzle-orm';
import { type Db, withTransaction } from '../engine/database.ts';
import { deliveryAttempts, outboxEvents, webhookDeliveries, webhookEndpoints } from '../engine/schema.ts';

export type DeliveryRow = typeof webhookDeliveries.$inferSelect;
export type AttemptRow = typeof deliveryAttempts.$inferSelect;

/** Pending, due at `now`, and not leased (or the lease ran out). `now` is the database's clock. */
const due = (now: SQL) =>
  and(
    eq(webhookDeliveries.status, 'pending'),
    lte(webhookDeliveries.nextAttemptAt, now),
    or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
  );

export interface ClaimRequest {
  /** The database's "now" and the lease's end (`dbNow`, `dbNowPlus`). */
  now: SQL;
  lease: SQL;
  /** Stored as `last_attempt_at`. */
  at: Date;
  accountId?: string | undefined;
  limit: number;
  maxInFlightPerEndpoint: number;
  endpointsPerClaim: number;
}

/** A CRM destination has at most one request in flight (issue 42); a webhook endpoint, the claim's limit. */
const DESTINATION_IN_FLIGHT = 1;

/** Not paused after a 429, or the pause is over. */
const notPaused = (now: SQL) =>
  or(isNull(webhookEndpoints.pausedUntil), lte(webhookEndpoints.pausedUntil, now));

/**
 * Claims due deliveries in one transaction. Up to `endpointsPerClaim` live endpoints with due work
 * are locked `FOR UPDATE SKIP LOCKED`, oldest due work first; for each, its in-flight count is read
 * and at most the room left under `maxInFlightPerEndpoint` is claimed (the deliveries locked the
 * same way): each gets the lease, the attempt time, and its attempt counted up front.
 */
export function claimDueDeliveries(db: Db, req: ClaimRequest): Promise<DeliveryRow[]> {
  let left = req.limit;
  return withTransaction(db, async (tx) => {
    const endpoints = await tx
      .select({ id: webhookEndpoints.id, kind: webhookEndpoints.kind })
      .from(webhookEndpoints)
      .where(
        and(
          isNull(webhookEndpoints.disabledAt),
          notPaused(req.now),
          req.accountId ? eq(webhookEndpoints.accountId, req.accountId) : undefined,
          exists(
            tx
              .select({ one: sql`1` })
              .from(webhookDeliveries)
              .where(and(eq(webhookDeliveries.endpointId, webhookEndpoints.id), due(req.now))),
          ),
        ),
      )
      // Oldest due work first, so a busy endpoint cannot starve the others.
      .orderBy(
        sql`(select min(d.next_attempt_at) from webhook_deliveries d where d.endpoint_id = ${webhookEndpoints.id} and d.status = 'pending')`,
      )
      .limit(req.endpointsPerClaim)
      .for('update', { skipLocked: true });
    const claimed: DeliveryRow[] = [];
    for (const { id, kind } of endpoints) {
      if (left <= 0) break;
      const [busy] = await tx
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.endpointId, id),
            eq(webhookDeliveries.status, 'pending'),
            gt(webhookDeliveries.lockedUntil, req.now),
          ),
        );
      const most = kind === 'webhook' ? req.maxInFlightPerEndpoint : DESTINATION_IN_FLIGHT;
      const room = Math.min(left, most - Number(busy?.n ?? 0));
      if (room <= 0) continue;
      const ids = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, id), due(req.now)))
        // Oldest first; among deliveries due together (a destination enabled again), the oldest lead first.
        .orderBy(asc(webhookDeliveries.nextAttemptAt), asc(webhookDeliveries.createdAt))
        .limit(room)
        .for('update', { skipLocked: true });
      if (ids.length === 0) continue;
      left -= ids.length;
      claimed.push(
        ...(await tx
          .update(webhookDeliveries)
          .set({
            lockedUntil: req.lease,
            lastAttemptAt: req.at,
            attempts: sql`${webhookDeliveries.attempts} + 1`,
          })
          .where(
            inArray(
              webhookDeliveries.id,
              ids.map((r) => r.id),
            ),
          )
          .returning()),
      );
    }
    return claimed;
  });
}

/** What an attempt needs: the delivery's endpoint and event (undefined when deleted meanwhile). */
export async function findAttemptTarget(db: Db, deliveryId: string) {
  const [row] = await db
    .select({ endpoint: webhookEndpoints, event: outboxEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, deliveryId));
  return row;
}

/**
 * Settles a still-pending delivery after an attempt: succeeded, failed for good (`completedAt`), or
 * pending again at `nextAttemptAt`, its lease released. False when it was no longer pending (or
 * gone), in which case nothing was written.
 */
export async function settleAttempt(
  tx: Db,
  id: string,
  outcome: { status: 'succeeded' | 'failed'; completedAt: Date } | { status: 'pending'; nextAttemptAt: SQL },
): Promise<boolean> {
  const { status, ...when } = outcome;
  const stillThere = await tx
    .update(webhookDeliveries)
    .set({ status, lockedUntil: null, ...when })
    .where(and(eq(webhookDeliveries.id, id), eq(webhookDeliveries.status, 'pending')))
    .returning({ id: webhookDeliveries.id });
  return stillThere.length > 0;
}

export async function insertAttempt(tx: Db, values: typeof deliveryAttempts.$inferInsert): Promise<void> {
  await tx.insert(deliveryAttempts).values(values);
}

/**
 * Firms with due deliveries on a live endpoint in round-robin order: ids after `after` first, then
 * from the start; `exclude` are left out.
 */
export async function dueWebhookFirmIds(
  db: Db,
  opts: { now: SQL; after: string | null; exclude: readonly string[]; limit: number },
): Promise<string[]> {
  const rows = await db
    .select({ accountId: webhookDeliveries.accountId })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        due(opts.now),
        isNull(webhookEndpoints.disabledAt),
        notPaused(opts.now),
        opts.exclude.length ? notInArray(webhookDeliveries.accountId, [...opts.exclude]) : undefined,
      ),
    )
    .groupBy(webhookDeliveries.accountId)
    .orderBy(
      opts.after === null ? sql`1` : sql`${webhookDeliveries.accountId} <= ${opts.after}`,
      asc(webhookDeliveries.accountId),
    )
    .limit(Math.max(1, opts.limit));
  return rows.map((r) => r.accountId);
}

/** An endpoint's latest deliveries, newest first, each with its event's type and test flag. */
export function latestDeliveriesOf(db: Db, endpointId: string, limit: number) {
  return db
    .select({ delivery: webhookDeliveries, type: outboxEvents.type, test: outboxEvents.test })
    .from(webhookDeliveries)
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.endpointId, endpointId))
    .orderBy(desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id))
    .limit(limit);
}

/** The attempt logs of these deliveries, in attempt order (none for an empty list). */
export async function attemptsOf(db: Db, deliveryIds: string[]): Promise<AttemptRow[]> {
  if (deliveryIds.length === 0) return [];
  return db
    .select()
    .from(deliveryAttempts)
    .where(inArray(deliveryAttempts.deliveryId, deliveryIds))
    .orderBy(asc(deliveryAttempts.attempt));
}

export async function findDelivery(db: Db, id: string): Promise<DeliveryRow | undefined> {
  const [row] = await db.select().from(webhookDeliveries).where(eq(webhookDeliveries.id, id));
  return row;
}
