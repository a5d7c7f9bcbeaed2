import { createHash } from 'node:crypto';
import { runCalculator } from '../../../calculators/index.ts';
import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { insertDeliveries, insertDelivery, insertOutboxEvent } from '../../db/repos/outbox-repo.ts';
import {
  type AttemptRow,
  attemptsOf,
  findDelivery,
  latestDeliveriesOf,
} from '../../db/repos/webhook-deliveries-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { ActingAs } from '../deps.ts';
import type { WebhookBody } from '../outbox/event-types.ts';
import { storedTexts } from '../results/calculations.ts';
import type { DeliveryDeps } from './deps.ts';
import { OPERATOR, requireEndpoint } from './endpoints.ts';

type Deps = Pick<DeliveryDeps, 'db' | 'clock'>;
/** The test button also links its sample digest to the portal's leads page. */
type TestEventDeps = Deps & Pick<DeliveryDeps, 'portalUrl'>;

const attemptView = (a: AttemptRow) => ({
  attempt: a.attempt,
  startedAt: a.startedAt.toISOString(),
  durationMs: a.durationMs,
  statusCode: a.statusCode,
  error: a.error,
  responseExcerpt: a.responseExcerpt,
  /** What was sent, credentials redacted (null for attempts logged before the inspector). */
  request: a.requestHeaders
    ? { headers: a.requestHeaders, body: a.requestBody ?? '', truncated: a.requestBodyTruncated }
    : null,
  /** What came back, credentials and cookies redacted, the body capped; null when no answer came. */
  response:
    a.statusCode === null
      ? null
      : {
          statusCode: a.statusCode,
          headers: a.responseHeaders ?? {},
          body: a.responseExcerpt ?? '',
          truncated: a.responseTruncated,
        },
});

/** An endpoint's latest deliveries, each with its event type and every attempt. */
export async function listDeliveries(
  deps: Deps,
  endpointId: string,
  limit = 50,
  scope?: { accountId?: string; webhooksOnly?: boolean },
) {
  const endpoint = await requireEndpoint(deps.db, endpointId, scope?.accountId);
  // A CRM destination's log is read through its own route (owners and admins only).
  if (scope?.webhooksOnly && endpoint.kind !== 'webhook')
    throw new AppError('NOT_FOUND', `No webhook endpoint ${endpointId}.`);
  const rows = await latestDeliveriesOf(deps.db, endpoint.id, limit);
  const attempts = await attemptsOf(
    deps.db,
    rows.map((r) => r.delivery.id),
  );
  return rows.map(({ delivery: d, type, test }) => ({
    id: d.id,
    endpointId: d.endpointId,
    eventId: d.eventId,
    type,
    test,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === 'pending' ? d.nextAttemptAt.toISOString() : null,
    completedAt: d.completedAt?.toISOString() ?? null,
    createdAt: d.createdAt.toISOString(),
    log: attempts.filter((a) => a.deliveryId === d.id).map(attemptView),
  }));
}

/**
 * Sends an event to the endpoint again as a new delivery with a fresh attempt sequence. The
 * `webhook-id` stays the event's id, so a receiver that already processed it can tell.
 */
export async function replayDelivery(deps: Deps, deliveryId: string, as: ActingAs = OPERATOR) {
  const original = await findDelivery(deps.db, deliveryId);
  if (!original || (as.accountId && original.accountId !== as.accountId))
    throw new AppError('NOT_FOUND', `No delivery ${deliveryId}.`);
  const endpoint = await requireEndpoint(deps.db, original.endpointId);
  if (endpoint.disabledAt) {
    throw new AppError('INVALID_TRANSITION', `Endpoint ${endpoint.id} is disabled; enable it first.`);
  }
  const now = deps.clock.now();
  const row = await insertDelivery(deps.db, {
    id: newId('dlv'),
    accountId: original.accountId,
    endpointId: original.endpointId,
    eventId: original.eventId,
    status: 'pending',
    nextAttemptAt: now,
    createdAt: now,
  });
  await recordAudit(deps.db, {
    accountId: original.accountId,
    actor: as.actor,
    action: 'webhook.replayed',
    subject: deliveryId,
    data: { newDeliveryId: row.id },
    at: now,
  });
  return {
    delivery: { id: row.id, eventId: row.eventId, endpointId: row.endpointId, status: row.status },
  };
}

const SAMPLE_LEAD = {
  leadId: 'lead_test0000000000000000000000',
  calculator: 'estate-tax',
  resultId: null,
  name: 'Test Lead',
  email: 'test.lead@example.com',
  phone: '+1 555 010 0000',
  state: 'NY',
  status: 'new' as const,
  consentText: 'I agree to be contacted.',
  consentVersionId: null,
  // The lead's public shape (docs/leads.md), so a mapping sees every field.
  result: {
    id: 'res_test0000000000000000000000',
    calculator: 'estate-tax',
    state: 'NY',
    inputs: { estateValue: 8_000_000, state: 'NY' },
    outputs: { federalTax: 0, stateTax: 773_200, totalTax: 773_200 },
    headline: 'Total estate tax: $773,200.00',
    headlineCode: { code: 'estate-tax.headline.totalTax', params: { amount: '$773,200.00' } },
  },
};

/** A made-up `rules.updated` body (the shape of calculators/rules-changelog.ts entries). */
const SAMPLE_RULE_CHANGE = {
  id: 'estate-tax/2026-01-01/test-change',
  date: '2026-01-01',
  kind: 'corrected' as const,
  figure: 'Example exemption, deaths in 2027',
  before: '$1,000,000',
  after: '$1,100,000',
  status: 'primary' as const,
  source: { title: 'A test event: no rule changed' },
  calculators: ['estate-tax'],
  states: ['NY'],
  summary: 'A test event: no rule changed.',
};

/**
 * The test button's event of each type, in the shape its contract declares (contracts/webhook.ts):
 * the lead above; a calculation the estate-tax calculator really computes for the sample's inputs;
 * a digest naming the sample lead.
 */
function sampleEvent(type: WebhookBody['type'], now: Date, portalUrl: string): WebhookBody {
  const at = now.toISOString();
  if (type === 'result.created') {
    const outcome = runCalculator(SAMPLE_LEAD.calculator, SAMPLE_LEAD.result.inputs, { now });
    if (!outcome.ok) throw new Error('The sample result’s inputs no longer pass the calculator.');
    const { result } = outcome;
    const data = {
      resultId: SAMPLE_LEAD.result.id,
      calculator: SAMPLE_LEAD.calculator,
      state: SAMPLE_LEAD.state,
      inputs: outcome.inputs,
      outputs: result.outputs,
      ...storedTexts(result),
      ruleSet: { ...result.ruleSet },
      createdAt: at,
      language: 'en',
      test: true as const,
    };
    return { type, timestamp: at, data };
  }
  if (type === 'rules.updated') return { type, timestamp: at, data: { ...SAMPLE_RULE_CHANGE, test: true } };
  if (type === 'leads.digest') {
    const from = new Date(now.getTime() - 3_600_000).toISOString();
    const data = {
      digestId: 'dig_test0000000000000000000000',
      licenseId: 'lic_test0000000000000000000000',
      reason: 'past_daily_figure' as const,
      dailyFigure: 25,
      from,
      to: at,
      count: 1,
      leadIds: [SAMPLE_LEAD.leadId],
      portalUrl: `${portalUrl}/leads?from=${from.slice(0, 10)}`,
      note: 'A test digest: live leads past the plan’s daily figure in an hour are alerted together.',
    };
    return { type, timestamp: at, data };
  }
  const data = {
    ...SAMPLE_LEAD,
    consentedAt: at,
    consent: {
      versionId: null,
      text: SAMPLE_LEAD.consentText,
      sha256: createHash('sha256').update(SAMPLE_LEAD.consentText, 'utf8').digest('hex'),
      agreedAt: at,
      page: 'https://example.com/estate-planning',
      pageVerified: true,
      assumed: false,
      language: 'en',
    },
    language: 'en',
    quarantined: false,
    quarantineReasons: [],
    createdAt: at,
    updatedAt: at,
    test: true,
  };
  return { type, timestamp: at, data };
}

/**
 * A test event to one endpoint: the first event type it subscribes to, with made-up data marked
 * `test: true`, so a Zapier or Make scenario can map the fields before a real lead arrives.
 */
export async function sendTestEvent(deps: TestEventDeps, endpointId: string, as: ActingAs = OPERATOR) {
  const endpoint = await requireEndpoint(deps.db, endpointId, as.accountId);
  const now = deps.clock.now();
  const type = (endpoint.events[0] ?? 'lead.created') as WebhookBody['type'];
  const body = sampleEvent(type, now, deps.portalUrl);
  const eventId = newId('msg');
  const deliveryId = newId('dlv');
  await withTransaction(deps.db, async (tx) => {
    await insertOutboxEvent(tx, {
      id: eventId,
      accountId: endpoint.accountId,
      type,
      payload: body as unknown as Record<string, unknown>,
      test: true,
      createdAt: now,
    });
    await insertDeliveries(tx, [
      {
        id: deliveryId,
        accountId: endpoint.accountId,
        endpointId: endpoint.id,
        eventId,
        status: 'pending',
        nextAttemptAt: now,
        createdAt: now,
      },
    ]);
  });
  await recordAudit(deps.db, {
    accountId: endpoint.accountId,
    actor: as.actor,
    action: endpoint.kind === 'webhook' ? 'webhook.tested' : 'destination.tested',
    subject: endpoint.id,
    ...(endpoint.kind === 'webhook' ? {} : { data: { vendor: endpoint.kind } }),
    at: now,
  });
  return { delivery: { id: deliveryId, eventId, endpointId: endpoint.id, type, status: 'pending' as const } };
}
