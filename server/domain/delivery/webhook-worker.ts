import {
  and,
  asc,
  count,
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
import { withTransaction } from '../../db/database.ts';
import { dbNow, dbNowPlus } from '../../db/db-now.ts';
import { newId } from '../../db/ids.ts';
import { deliveryAttempts, outboxEvents, webhookDeliveries, webhookEndpoints } from '../../db/schema.ts';
import type { DeliveryDeps } from './deps.ts';
import { disableFailingEndpoint } from './endpoint-health.ts';
import { signingSecrets } from './endpoints.ts';
import { postJson, type SendOutcome } from './http-sender.ts';
import { redactBody, redactHeaders } from './redact.ts';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule.ts';
import { signatureHeaders } from './signing.ts';

/** No endpoint has more than this many deliveries in flight, across every instance. */
export const MAX_IN_FLIGHT_PER_ENDPOINT = 3;
const ENDPOINTS_PER_CLAIM = 10;
/** A claim outlives the attempt's timeout by this much; after it, a crashed claim is due again. */
const LEASE_MARGIN_MS = 5_000;

type Claimed = typeof webhookDeliveries.$inferSelect;

const due = (now: SQL) =>
  and(
    eq(webhookDeliveries.status, 'pending'),
    lte(webhookDeliveries.nextAttemptAt, now),
    or(isNull(webhookDeliveries.lockedUntil), lte(webhookDeliveries.lockedUntil, now)),
  );

/**
 * Claims due deliveries for this instance. The endpoint rows are locked `FOR UPDATE SKIP LOCKED`
 * while their in-flight count is read and new claims are made, so instances claiming at the same
 * moment work on different endpoints and never exceed the per-endpoint limit together; the
 * deliveries themselves are locked the same way. A claim is a lease (`locked_until`) that counts
 * the attempt up front: a process killed mid-attempt leaves a lease that simply runs out. Leases
 * and due times are compared with the database's clock (`dbNow`), so an instance whose own clock
 * runs ahead does not see another's lease as expired.
 */
export async function claimDeliveries(
  deps: DeliveryDeps,
  opts: { accountId?: string; limit?: number } = {},
): Promise<Claimed[]> {
  const now = dbNow(deps.clock);
  const lease = dbNowPlus(deps.clock, deps.timeoutMs + LEASE_MARGIN_MS);
  let left = opts.limit ?? Number.POSITIVE_INFINITY;
  return withTransaction(deps.db, async (tx) => {
    const endpoints = await tx
      .select({ id: webhookEndpoints.id })
      .from(webhookEndpoints)
      .where(
        and(
          isNull(webhookEndpoints.disabledAt),
          opts.accountId ? eq(webhookEndpoints.accountId, opts.accountId) : undefined,
          exists(
            tx
              .select({ one: sql`1` })
              .from(webhookDeliveries)
              .where(and(eq(webhookDeliveries.endpointId, webhookEndpoints.id), due(now))),
          ),
        ),
      )
      // Oldest due work first, so a busy endpoint cannot starve the others.
      .orderBy(
        sql`(select min(d.next_attempt_at) from webhook_deliveries d where d.endpoint_id = ${webhookEndpoints.id} and d.status = 'pending')`,
      )
      .limit(ENDPOINTS_PER_CLAIM)
      .for('update', { skipLocked: true });
    const claimed: Claimed[] = [];
    for (const { id } of endpoints) {
      if (left <= 0) break;
      const [busy] = await tx
        .select({ n: count() })
        .from(webhookDeliveries)
        .where(
          and(
            eq(webhookDeliveries.endpointId, id),
            eq(webhookDeliveries.status, 'pending'),
            gt(webhookDeliveries.lockedUntil, now),
          ),
        );
      const room = Math.min(left, MAX_IN_FLIGHT_PER_ENDPOINT - Number(busy?.n ?? 0));
      if (room <= 0) continue;
      const ids = await tx
        .select({ id: webhookDeliveries.id })
        .from(webhookDeliveries)
        .where(and(eq(webhookDeliveries.endpointId, id), due(now)))
        .orderBy(asc(webhookDeliveries.nextAttemptAt))
        .limit(room)
        .for('update', { skipLocked: true });
      if (ids.length === 0) continue;
      left -= ids.length;
      claimed.push(
        ...(await tx
          .update(webhookDeliveries)
          .set({
            lockedUntil: lease,
            lastAttemptAt: deps.clock.now(),
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

/** One attempt of one claimed delivery: sign, send, record, and schedule the next or finish. */
export async function attemptDelivery(deps: DeliveryDeps, delivery: Claimed): Promise<SendOutcome | null> {
  const [row] = await deps.db
    .select({ endpoint: webhookEndpoints, event: outboxEvents })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .innerJoin(outboxEvents, eq(outboxEvents.id, webhookDeliveries.eventId))
    .where(eq(webhookDeliveries.id, delivery.id));
  if (!row) return null; // deleted meanwhile (lead deletion, endpoint deletion)
  const startedAt = deps.clock.now();
  const body = JSON.stringify(row.event.payload);
  const headers = signatureHeaders(
    signingSecrets(deps.secretKey, row.endpoint, startedAt),
    row.event.id,
    startedAt,
    body,
  );
  const outcome = await postJson(row.endpoint.url, body, headers, {
    timeoutMs: deps.timeoutMs,
    resolver: deps.resolver,
    allowPrivateHosts: deps.allowPrivateHosts,
    logger: deps.logger,
  });
  await recordOutcome(deps, delivery, row.endpoint.id, startedAt, outcome, body);
  return outcome;
}

async function recordOutcome(
  deps: DeliveryDeps,
  delivery: Claimed,
  endpointId: string,
  startedAt: Date,
  outcome: SendOutcome,
  body: string,
): Promise<void> {
  const now = deps.clock.now();
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const next = ok ? null : nextAttemptAt(delivery.attempts, now, deps.random);
  const finished = ok || next === null || delivery.attempts >= MAX_ATTEMPTS;
  await withTransaction(deps.db, async (tx) => {
    const stillThere = await tx
      .update(webhookDeliveries)
      .set({
        status: ok ? 'succeeded' : finished ? 'failed' : 'pending',
        lockedUntil: null,
        // The retry's due time on the database's clock, like the lease it replaces.
        ...(finished
          ? { completedAt: now }
          : { nextAttemptAt: dbNowPlus(deps.clock, next!.getTime() - now.getTime()) }),
      })
      .where(and(eq(webhookDeliveries.id, delivery.id), eq(webhookDeliveries.status, 'pending')))
      .returning({ id: webhookDeliveries.id });
    if (stillThere.length === 0) return;
    const request = redactBody(body);
    const response = redactBody(outcome.excerpt);
    await tx.insert(deliveryAttempts).values({
      id: newId('att'),
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      startedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: outcome.error,
      responseExcerpt: response.body || null,
      responseTruncated: outcome.truncated || response.truncated,
      responseHeaders: outcome.responseHeaders && redactHeaders(outcome.responseHeaders),
      requestHeaders: redactHeaders(outcome.requestHeaders),
      requestBody: request.body,
      requestBodyTruncated: request.truncated,
      createdAt: now,
    });
    await tx
      .update(webhookEndpoints)
      .set(
        ok
          ? { failingSince: null }
          : {
              failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${now.toISOString()}::timestamptz)`,
            },
      )
      .where(eq(webhookEndpoints.id, endpointId));
  });
  if (!ok) await disableFailingEndpoint(deps, endpointId);
}

/**
 * Firms with due deliveries on a live endpoint, round-robin order: ids after `after` first, then
 * from the start. `exclude` are firms that hold their full share of this instance's slots.
 */
export async function dueWebhookFirms(
  deps: DeliveryDeps,
  after: string | null,
  exclude: readonly string[],
  limit: number,
): Promise<string[]> {
  const now = dbNow(deps.clock);
  const rows = await deps.db
    .select({ accountId: webhookDeliveries.accountId })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(
      and(
        due(now),
        isNull(webhookEndpoints.disabledAt),
        exclude.length ? notInArray(webhookDeliveries.accountId, [...exclude]) : undefined,
      ),
    )
    .groupBy(webhookDeliveries.accountId)
    .orderBy(
      after === null ? sql`1` : sql`${webhookDeliveries.accountId} <= ${after}`,
      asc(webhookDeliveries.accountId),
    )
    .limit(Math.max(1, limit));
  return rows.map((r) => r.accountId);
}

/**
 * Claims and attempts one batch (in parallel); returns how many attempts were made. For tests and
 * one-off drains: the running worker uses a fair pool instead (see `worker.ts`).
 */
export async function deliverWebhooks(deps: DeliveryDeps): Promise<number> {
  const claimed = await claimDeliveries(deps);
  await Promise.all(claimed.map((d) => attemptDelivery(deps, d)));
  return claimed.length;
}
