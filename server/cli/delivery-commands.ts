import { parseOverlap } from '../domain/licensing/keys.ts';
import type {
  AdminAccountClosure,
  AdminDeleted,
  AdminLeadErased,
  AdminRetentionReport,
  AdminSubjectExport,
  AdminWebhookDeliveries,
  AdminWebhookDeliveryQueued,
  AdminWebhookEndpoint,
  AdminWebhookEndpoints,
  AdminWebhookEndpointWithSecret,
} from '../routes/api-types.ts';
import type { CliRequest } from './commands.ts';
import { rendering } from './rendering.ts';

/** Options of the delivery and privacy commands (merged into the CLI's option table). */
export const DELIVERY_OPTIONS = {
  url: { type: 'string' },
  events: { type: 'string' },
  description: { type: 'string' },
  'include-test': { type: 'boolean' },
  limit: { type: 'string' },
} as const;

export const DELIVERY_USAGE = `  webhook create --account ACCOUNT_ID --url URL --events lead.created,lead.updated,result.created [--description TEXT] [--include-test]
  webhook list --account ACCOUNT_ID
  webhook deliveries ENDPOINT_ID [--limit N]
  webhook replay DELIVERY_ID
  webhook test ENDPOINT_ID
  webhook roll-secret ENDPOINT_ID [--overlap 24h | --now]
  webhook update ENDPOINT_ID [--events lead.created,lead.updated] [--description TEXT]
  webhook enable ENDPOINT_ID
  webhook disable ENDPOINT_ID
  webhook delete ENDPOINT_ID
  lead delete LEAD_ID
  lead export --account ACCOUNT_ID --email EMAIL
  account close ACCOUNT_ID
  retention run`;

type Values = Record<string, string | boolean | undefined>;

const enc = encodeURIComponent;
const table = (pairs: [string, unknown][]) => pairs.map(([k, v]) => `${k.padEnd(14)} ${v ?? '—'}`).join('\n');

function need(values: Values, name: string, fail: (message: string) => Error): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw fail(`--${name} is required`);
  return value;
}

/** `--overlap 90m|24h|7d` or `--now`, as `license roll-key` takes them; undefined = the default. */
function overlapSeconds(values: Values, fail: (message: string) => Error): number | undefined {
  if (values.now && values.overlap) throw fail('give --overlap or --now, not both');
  if (values.now) return 0;
  if (typeof values.overlap !== 'string') return undefined;
  const ms = parseOverlap(values.overlap);
  if (ms === undefined) throw fail('--overlap takes a duration such as 90m, 24h or 7d');
  return ms / 1000;
}

const renderEndpoint = rendering((b: AdminWebhookEndpoint | AdminWebhookEndpointWithSecret) => {
  const e = b.endpoint;
  const secret = 'secret' in b ? b.secret : undefined;
  const rows: [string, unknown][] = [
    ['endpoint', e.id],
    ['url', e.url],
    ['events', e.events.join(', ')],
    ['status', e.status],
    ...(secret ? ([['secret', secret]] as [string, unknown][]) : []),
    ...(e.previousSecretValidUntil
      ? ([['old secret until', e.previousSecretValidUntil]] as [string, unknown][])
      : []),
  ];
  return table(rows) + (secret ? '\n\nStore the secret now: it is not shown again.' : '');
});

function renderDeliveries({ deliveries }: AdminWebhookDeliveries): string {
  if (deliveries.length === 0) return 'no deliveries yet';
  return deliveries
    .map((d) => {
      const log = d.log
        .map((a) => `    #${a.attempt} ${a.startedAt} ${a.statusCode ?? a.error} (${a.durationMs} ms)`)
        .join('\n');
      return `${d.id}  ${d.type}  ${d.status}  attempts ${d.attempts}${d.nextAttemptAt ? `  next ${d.nextAttemptAt}` : ''}${log ? `\n${log}` : ''}`;
    })
    .join('\n');
}

/** The `webhook …`, `lead …`, `account close` and `retention run` commands, or undefined. */
export function deliveryRequest(
  positionals: string[],
  values: Values,
  fail: (message: string) => Error,
): CliRequest | undefined {
  const [noun, verb, arg] = positionals;
  const needArg = (what: string) => {
    if (!arg) throw fail(`${noun} ${verb} needs ${what}`);
    return enc(arg);
  };
  switch (`${noun} ${verb}`) {
    case 'webhook create':
      return {
        method: 'POST',
        path: '/admin/v1/webhooks',
        body: {
          accountId: need(values, 'account', fail),
          url: need(values, 'url', fail),
          events: need(values, 'events', fail).split(','),
          ...(typeof values.description === 'string' ? { description: values.description } : {}),
          ...(values['include-test'] ? { includeTest: true } : {}),
        },
        render: renderEndpoint,
      };
    case 'webhook list':
      return {
        method: 'GET',
        path: `/admin/v1/accounts/${enc(need(values, 'account', fail))}/webhooks`,
        render: rendering(
          (b: AdminWebhookEndpoints) =>
            b.endpoints.map((e) => `${e.id}  ${e.status}  ${e.events.join(',')}  ${e.url}`).join('\n') ||
            'no webhook endpoints',
        ),
      };
    case 'webhook deliveries': {
      const limit = typeof values.limit === 'string' ? `?limit=${enc(values.limit)}` : '';
      return {
        method: 'GET',
        path: `/admin/v1/webhooks/${needArg('an ENDPOINT_ID')}/deliveries${limit}`,
        render: rendering(renderDeliveries),
      };
    }
    case 'webhook replay':
      return {
        method: 'POST',
        path: `/admin/v1/webhook-deliveries/${needArg('a DELIVERY_ID')}/replay`,
        render: rendering((b: AdminWebhookDeliveryQueued) => `queued ${b.delivery.id}`),
      };
    case 'webhook test':
      return {
        method: 'POST',
        path: `/admin/v1/webhooks/${needArg('an ENDPOINT_ID')}/test`,
        render: rendering((b: AdminWebhookDeliveryQueued) => `queued test delivery ${b.delivery.id}`),
      };
    case 'webhook roll-secret': {
      const seconds = overlapSeconds(values, fail);
      return {
        method: 'POST',
        path: `/admin/v1/webhooks/${needArg('an ENDPOINT_ID')}/roll-secret`,
        body: seconds === undefined ? {} : { overlapSeconds: seconds },
        render: renderEndpoint,
      };
    }
    case 'webhook update': {
      const id = needArg('an ENDPOINT_ID');
      const body = {
        ...(typeof values.events === 'string' ? { events: values.events.split(',') } : {}),
        ...(typeof values.description === 'string' ? { description: values.description } : {}),
      };
      if (Object.keys(body).length === 0) throw fail('webhook update needs --events or --description');
      return { method: 'PATCH', path: `/admin/v1/webhooks/${id}`, body, render: renderEndpoint };
    }
    case 'webhook disable':
      return {
        method: 'PATCH',
        path: `/admin/v1/webhooks/${needArg('an ENDPOINT_ID')}`,
        body: { enabled: false },
        render: renderEndpoint,
      };
    case 'webhook enable':
      return {
        method: 'POST',
        path: `/admin/v1/webhooks/${needArg('an ENDPOINT_ID')}/enable`,
        render: renderEndpoint,
      };
    case 'webhook delete':
      return {
        method: 'DELETE',
        path: `/admin/v1/webhooks/${needArg('an ENDPOINT_ID')}`,
        render: rendering((_: AdminDeleted) => `deleted ${arg}`),
      };
    case 'lead delete':
      return {
        method: 'DELETE',
        path: `/admin/v1/leads/${needArg('a LEAD_ID')}`,
        render: rendering((b: AdminLeadErased) =>
          table([
            ['deleted lead', b.leadId],
            ['result', b.resultDeleted],
            ['outbox events', b.outboxEventsDeleted],
            ['mails', b.mailsDeleted],
          ]),
        ),
      };
    case 'lead export':
      return {
        method: 'GET',
        path: `/admin/v1/accounts/${enc(need(values, 'account', fail))}/export?email=${enc(need(values, 'email', fail))}`,
        // An export is for handing over: always the whole JSON document.
        render: rendering((b: AdminSubjectExport) => JSON.stringify(b, null, 2)),
      };
    case 'account close':
      return {
        method: 'POST',
        path: `/admin/v1/accounts/${needArg('an ACCOUNT_ID')}/close`,
        render: rendering(
          (b: AdminAccountClosure) =>
            `${table([
              ['account', b.accountId],
              ['closed at', b.closedAt],
              ['deleted after', b.deleteAfter],
            ])}\n\nLicenses and API keys are revoked now; all of the firm's data is deleted after ${b.graceDays} days.`,
        ),
      };
    case 'retention run':
      return {
        method: 'POST',
        path: '/admin/v1/retention/run',
        render: rendering((b: AdminRetentionReport) => table(Object.entries(b))),
      };
    default:
      return undefined;
  }
}
