import type {
  AdminDeleted,
  AdminDestination,
  AdminDestinationShow,
  AdminDestinations,
  AdminWebhookDeliveries,
  AdminWebhookDeliveryQueued,
} from '../routes/api-types.ts';
import type { CliRequest } from './commands.ts';
import { rendering } from './rendering.ts';

/** Options of the `destination …` commands (merged into the CLI's option table). */
export const DESTINATION_OPTIONS = {
  vendor: { type: 'string' },
  credential: { type: 'string' },
  settings: { type: 'string' },
  enabled: { type: 'string' },
} as const;

export const DESTINATION_USAGE = `  destination create --account ACCOUNT_ID --vendor clio-grow|hubspot|salesforce|wealthbox --credential VALUE [--settings JSON] [--name TEXT] [--include-test]
  destination list --account ACCOUNT_ID
  destination show DESTINATION_ID
  destination update DESTINATION_ID [--name TEXT] [--settings JSON] [--include-test | --enabled true|false]
  destination test DESTINATION_ID
  destination enable DESTINATION_ID
  destination disable DESTINATION_ID
  destination roll-credentials DESTINATION_ID --credential VALUE
  destination deliveries DESTINATION_ID [--limit N]
  destination replay DELIVERY_ID
  destination delete DESTINATION_ID`;

type Values = Record<string, string | boolean | undefined>;
const enc = encodeURIComponent;
const table = (pairs: [string, unknown][]) => pairs.map(([k, v]) => `${k.padEnd(14)} ${v ?? '—'}`).join('\n');

const renderOne = rendering((b: AdminDestination | AdminDestinationShow) => {
  const d = b.destination;
  const last = 'lastDelivery' in d ? d.lastDelivery : undefined;
  return table([
    ['destination', d.id],
    ['crm', d.label],
    ['name', d.name],
    ['status', d.status],
    ...(d.disabledReason ? ([['why', d.disabledReason]] as [string, unknown][]) : []),
    ['sends to', d.url],
    ['credential', `…${d.credentialLast4}`],
    ['settings', JSON.stringify(d.settings)],
    ['test leads', d.includeTest ? 'yes' : 'no'],
    ...(last !== undefined
      ? ([['last delivery', last ? `${last.status} ${last.createdAt}` : 'none yet']] as [string, unknown][])
      : []),
  ]);
});

function settingsOf(values: Values, fail: (message: string) => Error): Record<string, unknown> | undefined {
  if (typeof values.settings !== 'string') return undefined;
  try {
    const parsed = JSON.parse(values.settings) as unknown;
    if (parsed && typeof parsed === 'object' && !Array.isArray(parsed))
      return parsed as Record<string, unknown>;
  } catch {}
  throw fail('--settings takes a JSON object, such as \'{"region":"eu"}\'');
}

function renderDeliveries({ deliveries }: AdminWebhookDeliveries): string {
  if (deliveries.length === 0) return 'no deliveries yet';
  return deliveries
    .map((d) => {
      const log = d.log
        .map(
          (a) =>
            `    #${a.attempt} ${a.startedAt} ${a.statusCode ?? ''} ${a.error ?? ''} (${a.durationMs} ms)`,
        )
        .join('\n');
      return `${d.id}  ${d.status}${d.test ? '  test' : ''}  attempts ${d.attempts}${d.nextAttemptAt ? `  next ${d.nextAttemptAt}` : ''}${log ? `\n${log}` : ''}`;
    })
    .join('\n');
}

/** The `destination …` commands, or undefined. */
export function destinationRequest(
  positionals: string[],
  values: Values,
  fail: (message: string) => Error,
): CliRequest | undefined {
  const [noun, verb, arg] = positionals;
  if (noun !== 'destination') return undefined;
  const need = (name: string) => {
    const v = values[name];
    if (typeof v !== 'string' || v === '') throw fail(`--${name} is required`);
    return v;
  };
  const id = () => {
    if (!arg) throw fail(`destination ${verb} needs an id`);
    return enc(arg);
  };
  const base = '/admin/v1/destinations';
  switch (verb) {
    case 'create':
      return {
        method: 'POST',
        path: base,
        body: {
          accountId: need('account'),
          vendor: need('vendor'),
          credential: need('credential'),
          ...(settingsOf(values, fail) ? { settings: settingsOf(values, fail) } : {}),
          ...(typeof values.name === 'string' ? { name: values.name } : {}),
          ...(values['include-test'] ? { includeTest: true } : {}),
        },
        render: renderOne,
      };
    case 'list':
      return {
        method: 'GET',
        path: `/admin/v1/accounts/${enc(need('account'))}/destinations`,
        render: rendering(
          (b: AdminDestinations) =>
            b.destinations
              .map(
                (d) =>
                  `${d.id}  ${d.status}  ${d.vendor}  ${d.name ?? ''}  last: ${d.lastDelivery?.status ?? 'none'}`,
              )
              .join('\n') || 'no destinations',
        ),
      };
    case 'show':
      return { method: 'GET', path: `${base}/${id()}`, render: renderOne };
    case 'update': {
      const body = {
        ...(typeof values.name === 'string' ? { name: values.name } : {}),
        ...(settingsOf(values, fail) ? { settings: settingsOf(values, fail) } : {}),
        ...(values['include-test'] !== undefined ? { includeTest: Boolean(values['include-test']) } : {}),
        ...(typeof values.enabled === 'string' ? { enabled: values.enabled === 'true' } : {}),
      };
      if (Object.keys(body).length === 0)
        throw fail('destination update needs --name, --settings, --include-test or --enabled');
      return { method: 'PATCH', path: `${base}/${id()}`, body, render: renderOne };
    }
    case 'test':
      return {
        method: 'POST',
        path: `${base}/${id()}/test`,
        render: rendering((b: AdminWebhookDeliveryQueued) => `queued test delivery ${b.delivery.id}`),
      };
    case 'enable':
    case 'disable':
      return { method: 'POST', path: `${base}/${id()}/${verb}`, render: renderOne };
    case 'roll-credentials':
      return {
        method: 'POST',
        path: `${base}/${id()}/roll-credentials`,
        body: { credential: need('credential') },
        render: renderOne,
      };
    case 'deliveries': {
      const limit = typeof values.limit === 'string' ? `?limit=${enc(values.limit)}` : '';
      return {
        method: 'GET',
        path: `${base}/${id()}/deliveries${limit}`,
        render: rendering(renderDeliveries),
      };
    }
    case 'replay':
      return {
        method: 'POST',
        path: `/admin/v1/webhook-deliveries/${id()}/replay`,
        render: rendering((b: AdminWebhookDeliveryQueued) => `queued ${b.delivery.id}`),
      };
    case 'delete':
      return {
        method: 'DELETE',
        path: `${base}/${id()}`,
        render: rendering((_: AdminDeleted) => `deleted ${arg}`),
      };
    default:
      return undefined;
  }
}
