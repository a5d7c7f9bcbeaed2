import type { LeadView } from '../../contracts/lead.ts';
import { withTransaction } from '../../db/engine/database.ts';
import { dbNowPlus } from '../../db/engine/db-now.ts';
import { newId } from '../../db/engine/ids.ts';
import { type DeliveryRow, insertAttempt, settleAttempt } from '../../db/repos/webhook-deliveries-repo.ts';
import {
  type EndpointRow,
  noteEndpointOutcome,
  pauseEndpointUntil,
} from '../../db/repos/webhook-endpoints-repo.ts';
import { decrypt } from '../../secrets/encryption.ts';
import { baseUrlHosts, redirectToBase } from '../destinations/base-urls.ts';
import {
  type Connector,
  type DestinationVendor,
  type VendorRequest,
  type VendorVerdict,
  verdictOf,
} from '../destinations/connector.ts';
import { CONNECTORS } from '../destinations/connectors/index.ts';
import { crmLeadOf } from '../destinations/crm-note.ts';
import type { DeliveryDeps } from './deps.ts';
import { disableRefusedDestination } from './destination-health.ts';
import { postToVendor, type SendOutcome } from './http-sender.ts';
import { redactBody, redactHeaders } from './redact.ts';
import { MAX_ATTEMPTS, nextAttemptAt } from './retry-schedule.ts';

type Target = { endpoint: EndpointRow; event: { payload: Record<string, unknown> } };

const connectorOf = (kind: string): Connector | undefined =>
  (CONNECTORS as Record<string, Connector | undefined>)[kind];

/**
 * One attempt of one claimed delivery to a CRM destination: the lead (the outbox event's `data`,
 * the lead's contract) becomes the vendor's request, which goes through the same address guard,
 * timeout and inspector as a webhook. The vendor's own host is used unless `DESTINATION_BASE_URLS`
 * names the vendor; only a host named there may be private. The answer decides what follows
 * (see `settle`).
 */
export async function deliverToCrm(
  deps: DeliveryDeps,
  delivery: DeliveryRow,
  target: Target,
): Promise<SendOutcome> {
  const startedAt = deps.clock.now();
  const connector = connectorOf(target.endpoint.kind);
  const vendor = target.endpoint.kind as DestinationVendor;
  const base = deps.destinationBaseUrls?.[vendor];
  let outcome: SendOutcome;
  let body = '';
  if (!connector) {
    outcome = failedBeforeSending(`no connector for ${target.endpoint.kind}`);
  } else {
    let request: VendorRequest;
    try {
      const lead = (target.event.payload.data ?? {}) as LeadView;
      const settings = connector.settings.parse(target.endpoint.destinationConfig ?? {});
      const credential = decrypt(deps.secretKey, target.endpoint.secretEnc);
      request = connector.build(crmLeadOf(lead, `${deps.portalUrl}/leads`), settings, credential);
    } catch (error) {
      deps.logger.error({ err: error, endpointId: target.endpoint.id }, 'CRM request not built');
      outcome = failedBeforeSending('the lead or the destination’s settings could not be read');
      await settle(deps, delivery, target.endpoint, startedAt, outcome, '', {
        kind: 'rejected',
        message: outcome.error!,
      });
      return outcome;
    }
    body = request.body;
    outcome = await postToVendor(
      redirectToBase(request.url, base),
      request.body,
      request.contentType,
      request.headers,
      {
        timeoutMs: deps.timeoutMs,
        resolver: deps.resolver,
        allowPrivateHosts: base && deps.destinationBaseUrls ? baseUrlHosts({ [vendor]: base }) : [],
        logger: deps.logger,
      },
    );
  }
  const verdict: VendorVerdict = connector
    ? verdictOf(
        connector,
        {
          statusCode: outcome.statusCode,
          error: outcome.error,
          body: outcome.excerpt,
          retryAfter: outcome.responseHeaders?.['retry-after'],
        },
        deps.clock.now(),
      )
    : { kind: 'rejected', message: outcome.error ?? 'no connector' };
  await settle(deps, delivery, target.endpoint, startedAt, outcome, body, verdict);
  if (verdict.kind === 'credential_refused')
    await disableRefusedDestination(deps, target.endpoint.id, verdict.message);
  return outcome;
}

function failedBeforeSending(error: string): SendOutcome {
  return {
    statusCode: null,
    error,
    excerpt: '',
    truncated: false,
    requestHeaders: {},
    responseHeaders: null,
    durationMs: 0,
  };
}

/**
 * Delivered: done. Rejected (a 4xx other than 401/403/408/429): failed, not retried, the vendor's
 * message in the log. Credential refused: the delivery waits (pending) while the destination is
 * disabled. Retry (429, 5xx, no answer): the schedule's next time, never before Retry-After, and
 * after a 429 the whole destination pauses until then.
 */
async function settle(
  deps: DeliveryDeps,
  delivery: DeliveryRow,
  endpoint: EndpointRow,
  startedAt: Date,
  outcome: SendOutcome,
  body: string,
  verdict: VendorVerdict,
): Promise<void> {
  const now = deps.clock.now();
  const ok = verdict.kind === 'delivered';
  const retryAfter = verdict.kind === 'retry' ? (verdict.retryAfterMs ?? 0) : 0;
  const scheduled = verdict.kind === 'retry' ? nextAttemptAt(delivery.attempts, now, deps.random) : null;
  const waitMs = scheduled ? Math.max(scheduled.getTime() - now.getTime(), retryAfter) : 0;
  await withTransaction(deps.db, async (tx) => {
    const stillThere = await settleAttempt(
      tx,
      delivery.id,
      ok
        ? { status: 'succeeded', completedAt: now }
        : verdict.kind === 'credential_refused'
          ? { status: 'pending', nextAttemptAt: dbNowPlus(deps.clock, 0) }
          : verdict.kind === 'retry' && scheduled && delivery.attempts < MAX_ATTEMPTS
            ? { status: 'pending', nextAttemptAt: dbNowPlus(deps.clock, waitMs) }
            : { status: 'failed', completedAt: now },
    );
    if (!stillThere) return;
    if (retryAfter > 0) await pauseEndpointUntil(tx, endpoint.id, dbNowPlus(deps.clock, retryAfter));
    const request = redactBody(body);
    const response = redactBody(outcome.excerpt);
    await insertAttempt(tx, {
      id: newId('att'),
      deliveryId: delivery.id,
      attempt: delivery.attempts,
      startedAt,
      durationMs: outcome.durationMs,
      statusCode: outcome.statusCode,
      error: ok
        ? null
        : verdict.kind === 'retry' && outcome.statusCode === null
          ? outcome.error
          : verdictText(verdict),
      responseExcerpt: response.body || null,
      responseTruncated: outcome.truncated || response.truncated,
      responseHeaders: outcome.responseHeaders && redactHeaders(outcome.responseHeaders),
      requestHeaders: redactHeaders(outcome.requestHeaders),
      requestBody: request.body,
      requestBodyTruncated: request.truncated,
      createdAt: now,
    });
    await noteEndpointOutcome(tx, endpoint.id, ok, now);
  });
}

function verdictText(verdict: VendorVerdict): string | null {
  if (verdict.kind === 'delivered') return null;
  const what = {
    credential_refused: 'credential refused; destination disabled',
    rejected: 'refused by the CRM; not retried',
    retry: 'will retry',
  }[verdict.kind];
  return `${what}: ${verdict.message}`.slice(0, 500);
}
