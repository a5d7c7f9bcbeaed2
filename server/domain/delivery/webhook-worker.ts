import { withTransaction } from '../../db/engine/database.ts';
import { dbNow, dbNowPlus } from '../../db/engine/db-now.ts';
import { newId } from '../../db/engine/ids.ts';
import {
  claimDueDeliveries,
  type DeliveryRow,
  dueWebhookFirmIds,
  findAttemptTarget,
  insertAttempt,
  settleAttempt,
} from '../../db/repos/webhook-deliveries-repo.ts';
import { noteEndpointOutcome } from '../../db/repos/webhook-endpoints-repo.ts';
import { deliverToCrm } from './deliver-to-crm.ts';
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

type Claimed = DeliveryRow;

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
  return claimDueDeliveries(deps.db, {
    now: dbNow(deps.clock),
    lease: dbNowPlus(deps.clock, deps.timeoutMs + LEASE_MARGIN_MS),
    at: deps.clock.now(),
    accountId: opts.accountId,
    limit: opts.limit ?? Number.POSITIVE_INFINITY,
    maxInFlightPerEndpoint: MAX_IN_FLIGHT_PER_ENDPOINT,
    endpointsPerClaim: ENDPOINTS_PER_CLAIM,
  });
}

/** One attempt of one claimed delivery: sign, send, record, and schedule the next or finish. */
export async function attemptDelivery(deps: DeliveryDeps, delivery: Claimed): Promise<SendOutcome | null> {
  const row = await findAttemptTarget(deps.db, delivery.id);
  if (!row) return null; // deleted meanwhile (lead deletion, endpoint deletion)
  if (row.endpoint.kind !== 'webhook') return deliverToCrm(deps, delivery, row);
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
  const next = ok || outcome.permanent ? null : nextAttemptAt(delivery.attempts, now, deps.random);
  const finished = ok || next === null || delivery.attempts >= MAX_ATTEMPTS;
  await withTransaction(deps.db, async (tx) => {
    const stillThere = await settleAttempt(
      tx,
      delivery.id,
      finished
        ? { status: ok ? 'succeeded' : 'failed', completedAt: now }
        : // The retry's due time on the database's clock, like the lease it replaces.
          { status: 'pending', nextAttemptAt: dbNowPlus(deps.clock, next!.getTime() - now.getTime()) },
    );
    if (!stillThere) return;
    const request = redactBody(body);
    const response = redactBody(outcome.excerpt);
    await insertAttempt(tx, {
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
    await noteEndpointOutcome(tx, endpointId, ok, now);
  });
  // A private destination will never answer: the endpoint stops now, with the same words as at registration.
  if (!ok) await disableFailingEndpoint(deps, endpointId, outcome.permanent ? outcome.error : undefined);
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
  return dueWebhookFirmIds(deps.db, { now: dbNow(deps.clock), after, exclude, limit });
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
