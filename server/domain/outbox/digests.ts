import type { Db } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { openDigest } from '../../db/repos/lead-digests-repo.ts';
import {
  addLeadToDigestEvent,
  insertDeliveries,
  insertMail,
  insertOutboxEvent,
} from '../../db/repos/outbox-repo.ts';
import { liveEndpointsOf } from '../../db/repos/webhook-endpoints-repo.ts';
import type { WebhookBody } from './event-types.ts';
import { alertAddresses } from './outbox.ts';

/** Past the plan's daily figure, alerts are grouped per hour: one mail and one event per hour. */
const DIGEST_WINDOW_MS = 3_600_000;
const DAY_MS = 86_400_000;
/** A digest event names at most this many leads (its `count` counts them all). */
const DIGEST_MAX_IDS = 200;

const windowOf = (at: Date, size: number) => new Date(Math.floor(at.getTime() / size) * size);

/**
 * The open alert digest for this firm's hour; the lead that opens it schedules, for the end of
 * the hour, one `leads.digest` event (to endpoints that take `lead.created` or `leads.digest`)
 * and one digest mail, which lists the leads carrying its id when it is sent. Call it inside the
 * lead's transaction. Returns the digest id to store on the lead.
 */
export async function joinAlertDigest(
  tx: Db,
  lead: { id: string; accountId: string; licenseId: string },
  quota: number,
  now: Date,
  portalLeadsUrl?: string,
): Promise<string> {
  const windowStart = windowOf(now, DIGEST_WINDOW_MS);
  const sendAt = new Date(windowStart.getTime() + DIGEST_WINDOW_MS);
  const { digest, created } = await openDigest(tx, {
    accountId: lead.accountId,
    kind: 'alerts',
    windowStart,
    sendAt,
    now,
  });
  // The digest's one event has an id of its own digest's: later leads find it to join.
  const eventId = `msg_${digest.id.slice(digest.id.indexOf('_') + 1)}`;
  if (!created) {
    await addLeadToDigestEvent(tx, eventId, lead.id, DIGEST_MAX_IDS);
    return digest.id;
  }
  const endpoints = (await liveEndpointsOf(tx, lead.accountId)).filter(
    (e) => e.events.includes('lead.created') || e.events.includes('leads.digest'),
  );
  const alertTo = await alertAddresses(tx, lead.accountId);
  if (endpoints.length === 0 && alertTo.length === 0) return digest.id;
  const from = windowStart.toISOString();
  const body: WebhookBody = {
    type: 'leads.digest',
    timestamp: sendAt.toISOString(),
    data: {
      digestId: digest.id,
      licenseId: lead.licenseId,
      reason: 'past_daily_figure',
      dailyFigure: quota,
      from,
      to: sendAt.toISOString(),
      count: 1,
      leadIds: [lead.id],
      ...(portalLeadsUrl ? { portalUrl: `${portalLeadsUrl}?from=${from.slice(0, 10)}` } : {}),
      note: `Live leads past the plan’s daily figure in this hour, alerted together: count, the first ${DIGEST_MAX_IDS} ids, and all with GET /v1/api/leads (createdFrom/createdTo).`,
    },
  };
  await insertOutboxEvent(tx, {
    id: eventId,
    accountId: lead.accountId,
    type: 'leads.digest',
    payload: body as unknown as Record<string, unknown>,
    test: false,
    createdAt: now,
  });
  if (endpoints.length > 0)
    await insertDeliveries(
      tx,
      endpoints.map((e) => ({
        id: newId('dlv'),
        accountId: lead.accountId,
        endpointId: e.id,
        eventId,
        status: 'pending' as const,
        nextAttemptAt: sendAt,
        createdAt: now,
      })),
    );
  if (alertTo.length > 0)
    await insertMail(tx, {
      id: newId('mail'),
      accountId: lead.accountId,
      kind: 'lead_digest',
      eventId,
      recipients: alertTo,
      body: { digestId: digest.id },
      status: 'pending',
      nextAttemptAt: sendAt,
      createdAt: now,
    });
  return digest.id;
}

/**
 * A lead was held: the firm's daily quarantine mail (one per UTC day, sent at its end) is
 * scheduled by the first held lead of the day. It lists the day's leads still held, with reasons.
 */
export async function noteQuarantined(tx: Db, accountId: string, now: Date): Promise<void> {
  const windowStart = windowOf(now, DAY_MS);
  const sendAt = new Date(windowStart.getTime() + DAY_MS);
  const { digest, created } = await openDigest(tx, {
    accountId,
    kind: 'quarantine',
    windowStart,
    sendAt,
    now,
  });
  if (!created) return;
  const alertTo = await alertAddresses(tx, accountId);
  if (alertTo.length === 0) return;
  await insertMail(tx, {
    id: newId('mail'),
    accountId,
    kind: 'quarantine_report',
    recipients: alertTo,
    body: { digestId: digest.id },
    status: 'pending',
    nextAttemptAt: sendAt,
    createdAt: now,
  });
}
