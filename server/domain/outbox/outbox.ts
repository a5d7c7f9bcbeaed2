import type { LeadView } from '../../contracts/lead.ts';
import type { ResultView } from '../../contracts/result.ts';
import type { Db } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { countPending, insertDeliveries, insertMail, insertOutboxEvent } from '../../db/repos/outbox-repo.ts';
import {
  type EndpointRow,
  liveEndpointsOf,
  receivingEndpointsOf,
} from '../../db/repos/webhook-endpoints-repo.ts';
import { type CacheDeps, cachedLookup } from '../caches/cached-lookups.ts';
import type { WebhookBody, WebhookEventType } from './event-types.ts';

/**
 * The raw writer's input. Production events come through `enqueueLeadEvent` and
 * `enqueueResultEvent`, whose data is typed by its contract (contracts/webhook.ts); this loose form
 * is for the outbox's own tests and benchmarks, which load it with small bodies.
 */
export interface OutboxInput {
  accountId: string;
  type: WebhookEventType;
  /** The record as the REST API shows it (contracts/webhook.ts declares it per type). */
  data: Record<string, unknown>;
  /** Test-mode data (a development host): only endpoints that asked for test events get it. */
  test: boolean;
  /** Quarantined leads (over the daily quota) reach no endpoint and no inbox. */
  quarantined: boolean;
  leadId?: string | null;
  resultId?: string | null;
  at: Date;
  /**
   * Only CRM destinations: a lead past the plan's daily figure goes to webhooks and inboxes in its
   * hour's digest, but a CRM takes each lead on its own.
   */
  destinationsOnly?: boolean;
}

/**
 * Writes an event into the outbox. Call it inside the transaction that stores the lead or result:
 * the event then exists exactly when the record does, and a crash after the commit loses nothing,
 * because the workers read their work from these rows. One delivery row per subscribed endpoint,
 * and for `lead.created` one alert mail to the firm's alert addresses. When nobody would receive
 * the event, nothing is written (no needless copy of a person's data). Returns the event id.
 */
export async function enqueueEvent(tx: Db, input: OutboxInput): Promise<string | null> {
  if (input.quarantined) return null;
  const endpoints = receivers(await receivingEndpointsOf(tx, input.accountId), input);
  const alertTo =
    input.type === 'lead.created' && !input.test && !input.destinationsOnly
      ? await alertAddresses(tx, input.accountId)
      : [];
  if (endpoints.length === 0 && alertTo.length === 0) return null;
  const id = newId('msg');
  const body = { type: input.type, timestamp: input.at.toISOString(), data: input.data } as WebhookBody;
  await insertOutboxEvent(tx, {
    id,
    accountId: input.accountId,
    type: input.type,
    payload: body as unknown as Record<string, unknown>,
    test: input.test,
    leadId: input.leadId ?? null,
    resultId: input.resultId ?? null,
    createdAt: input.at,
  });
  if (endpoints.length > 0) {
    await insertDeliveries(
      tx,
      endpoints.map((e) => ({
        id: newId('dlv'),
        accountId: input.accountId,
        endpointId: e.id,
        eventId: id,
        status: 'pending' as const,
        nextAttemptAt: input.at,
        createdAt: input.at,
      })),
    );
  }
  if (alertTo.length > 0) {
    await insertMail(tx, {
      id: newId('mail'),
      accountId: input.accountId,
      kind: 'lead_alert',
      eventId: id,
      leadId: input.leadId ?? null,
      recipients: alertTo,
      status: 'pending',
      nextAttemptAt: input.at,
      createdAt: input.at,
    });
  }
  return id;
}

/** The firm's alert addresses (only well-formed ones); none when it set none. */
export async function alertAddresses(tx: Db, accountId: string): Promise<string[]> {
  const row = await findAccountById(tx, accountId);
  return (row?.alertEmails ?? []).filter((e) => typeof e === 'string' && e.includes('@'));
}

/** The lead-shaped call that leads.ts makes: flags come from the stored row. */
export function enqueueLeadEvent(
  tx: Db,
  type: 'lead.created' | 'lead.updated',
  row: { id: string; accountId: string; resultId: string | null; test: boolean; quarantinedAt: Date | null },
  view: LeadView,
  at: Date,
  opts: { destinationsOnly?: boolean } = {},
): Promise<string | null> {
  return enqueueEvent(tx, {
    ...opts,
    accountId: row.accountId,
    type,
    data: view satisfies Extract<WebhookBody, { type: 'lead.created' }>['data'],
    test: row.test,
    quarantined: row.quarantinedAt !== null,
    leadId: row.id,
    resultId: row.resultId,
    at,
  });
}

/**
 * Who gets this event: live webhook endpoints subscribed to its type (test data only to those that
 * asked for it), and CRM destinations for `lead.created` only — never updates, results, digests or
 * any event added later — test leads only when they ask. A disabled destination gets its delivery
 * too: it waits until the destination is enabled again (cancelled after 7 days, see retention.ts).
 */
function receivers(rows: EndpointRow[], input: OutboxInput): EndpointRow[] {
  return rows.filter((e) => {
    if (input.test && !e.includeTest) return false;
    if (e.kind !== 'webhook') return input.type === 'lead.created';
    return !input.destinationsOnly && e.disabledAt === null && e.events.includes(input.type);
  });
}

/**
 * Whether a `result.created` event of this account would reach an endpoint. When none would, the
 * result can be stored on its own (one round trip, no transaction): `enqueueResultEvent` would
 * write nothing anyway. The answer is cached per account: every write that could turn it from "no"
 * to "yes" (an endpoint created, turned on, or given other events) invalidates; a stale "yes" only
 * costs the transaction, whose outbox write asks the database again.
 */
export async function wantsResultEvent(
  deps: CacheDeps,
  row: { accountId: string; test: boolean },
): Promise<boolean> {
  const wants = await cachedLookup(deps, 'result-subscribers', row.accountId, async () => {
    const live = (await liveEndpointsOf(deps.db, row.accountId)).filter((e) =>
      e.events.includes('result.created'),
    );
    return { any: live.length > 0, live: live.some((e) => e.includeTest) };
  });
  return row.test ? Boolean(wants?.live) : Boolean(wants?.any);
}

export function enqueueResultEvent(
  tx: Db,
  row: { id: string; accountId: string; test: boolean },
  view: ResultView,
  at: Date,
): Promise<string | null> {
  return enqueueEvent(tx, {
    accountId: row.accountId,
    type: 'result.created',
    data: view satisfies Extract<WebhookBody, { type: 'result.created' }>['data'],
    test: row.test,
    quarantined: false,
    resultId: row.id,
    at,
  });
}

/** Deliveries waiting in the outbox (webhooks and alert mails not yet sent or given up): a gauge. */
export async function outboxDepth(db: Db, what: 'webhooks' | 'mails'): Promise<number> {
  return countPending(db, what);
}
