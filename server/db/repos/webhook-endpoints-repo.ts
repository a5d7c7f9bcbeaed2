import { and, count, desc, eq, isNotNull, isNull, lt, lte, ne, or, type SQL, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { accounts, licenses, webhookDeliveries, webhookEndpoints } from '../engine/schema.ts';

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type EndpointChangeSet = Partial<Omit<EndpointRow, 'id' | 'accountId' | 'createdAt'>>;

export async function insertEndpoint(
  db: Db,
  values: typeof webhookEndpoints.$inferInsert,
): Promise<EndpointRow> {
  const [row] = await db.insert(webhookEndpoints).values(values).returning();
  return row!;
}

/**
 * What decides whether a firm may add an endpoint: the plans of its live licenses and how many
 * endpoints it has. The account row is locked first (`FOR UPDATE`), so call it in the transaction
 * that inserts: two requests at once cannot both take the last place.
 */
export async function lockEndpointRoom(
  tx: Db,
  accountId: string,
  of: 'webhooks' | 'destinations' = 'webhooks',
): Promise<{ livePlans: string[]; endpoints: number }> {
  await tx.select({ id: accounts.id }).from(accounts).where(eq(accounts.id, accountId)).for('update');
  const held = await tx
    .select({ plan: licenses.plan })
    .from(licenses)
    .where(and(eq(licenses.accountId, accountId), isNull(licenses.revokedAt)));
  const [row] = await tx
    .select({ n: count() })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), of === 'webhooks' ? isWebhook : isDestination));
  return { livePlans: held.map((l) => l.plan), endpoints: Number(row?.n ?? 0) };
}

/** Webhook endpoints proper; the other kinds are CRM destinations (issue 42). */
const isWebhook = eq(webhookEndpoints.kind, 'webhook');
const isDestination = ne(webhookEndpoints.kind, 'webhook');

/** A firm's webhook endpoints (or its CRM destinations), newest first. */
export function listEndpointsOf(
  db: Db,
  accountId: string,
  of: 'webhooks' | 'destinations' = 'webhooks',
): Promise<EndpointRow[]> {
  return db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), of === 'webhooks' ? isWebhook : isDestination))
    .orderBy(desc(webhookEndpoints.createdAt));
}

/**
 * A firm's live webhook endpoints and all its CRM destinations, disabled ones included: a disabled destination still gets its
 * `lead.created` deliveries, which wait (up to 7 days) until it is enabled again.
 */
export const receivingEndpointsOf = (db: Db, accountId: string): Promise<EndpointRow[]> =>
  db
    .select()
    .from(webhookEndpoints)
    .where(
      and(eq(webhookEndpoints.accountId, accountId), or(isNull(webhookEndpoints.disabledAt), isDestination)),
    );

/** After a 429: nothing is claimed for this target before `until` (the database's clock). */
export async function pauseEndpointUntil(tx: Db, id: string, until: SQL): Promise<void> {
  await tx
    .update(webhookEndpoints)
    .set({ pausedUntil: sql`greatest(coalesce(${webhookEndpoints.pausedUntil}, ${until}), ${until})` })
    .where(eq(webhookEndpoints.id, id));
}

/** Disables a destination that is still on; returns it, or undefined when it was already off. */
export async function disableIfEnabled(
  tx: Db,
  input: { id: string; reason: string; now: Date },
): Promise<EndpointRow | undefined> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ disabledAt: input.now, disabledReason: input.reason, updatedAt: input.now })
    .where(and(eq(webhookEndpoints.id, input.id), isNull(webhookEndpoints.disabledAt)))
    .returning();
  return row;
}

/**
 * Cancels deliveries that have waited on a disabled destination since before `cutoff`; they stay
 * listed, cancelled, for replay. Returns what was cancelled, per destination.
 */
export async function cancelWaitingOnDisabledDestinations(
  db: Db,
  cutoff: Date,
  now: Date,
): Promise<{ endpointId: string; accountId: string }[]> {
  const disabled = db
    .select({ id: webhookEndpoints.id })
    .from(webhookEndpoints)
    .where(and(isDestination, isNotNull(webhookEndpoints.disabledAt)));
  return db
    .update(webhookDeliveries)
    .set({ status: 'cancelled', completedAt: now, lockedUntil: null })
    .where(
      and(
        eq(webhookDeliveries.status, 'pending'),
        lt(webhookDeliveries.createdAt, cutoff),
        sql`${webhookDeliveries.endpointId} in ${disabled}`,
      ),
    )
    .returning({ endpointId: webhookDeliveries.endpointId, accountId: webhookDeliveries.accountId });
}

/** One endpoint; with `accountId`, only when it belongs to that firm. */
export async function findEndpoint(db: Db, id: string, accountId?: string): Promise<EndpointRow | undefined> {
  const [row] = await db
    .select()
    .from(webhookEndpoints)
    .where(
      accountId
        ? and(eq(webhookEndpoints.id, id), eq(webhookEndpoints.accountId, accountId))
        : eq(webhookEndpoints.id, id),
    );
  return row;
}

/** Deletes the endpoint; its deliveries and their attempt logs go with it by cascade. */
export async function deleteEndpointRow(db: Db, id: string): Promise<void> {
  await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, id));
}

export async function updateEndpointRow(db: Db, id: string, set: EndpointChangeSet): Promise<EndpointRow> {
  const [row] = await db.update(webhookEndpoints).set(set).where(eq(webhookEndpoints.id, id)).returning();
  return row!;
}

/** The firm's webhook endpoints that are on (not disabled), in no particular order. */
export const liveEndpointsOf = (db: Db, accountId: string): Promise<EndpointRow[]> =>
  db
    .select()
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.accountId, accountId), isNull(webhookEndpoints.disabledAt), isWebhook));

/**
 * Disables the endpoint when it is still on and has been failing since `cutoff` or earlier; the
 * condition makes one instance win. Returns the disabled row, or undefined when nothing changed.
 */
export async function disableEndpointFailingSince(
  tx: Db,
  input: { id: string; cutoff: Date; reason: string; now: Date },
): Promise<EndpointRow | undefined> {
  const [row] = await tx
    .update(webhookEndpoints)
    .set({ disabledAt: input.now, disabledReason: input.reason, updatedAt: input.now })
    .where(
      and(
        eq(webhookEndpoints.id, input.id),
        isNull(webhookEndpoints.disabledAt),
        lte(webhookEndpoints.failingSince, input.cutoff),
      ),
    )
    .returning();
  return row;
}

/** After an attempt: a success clears `failing_since`; a failure sets it unless already set. */
export async function noteEndpointOutcome(tx: Db, id: string, ok: boolean, now: Date): Promise<void> {
  await tx
    .update(webhookEndpoints)
    .set(
      ok
        ? { failingSince: null }
        : {
            failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)`,
          },
    )
    .where(eq(webhookEndpoints.id, id));
}
