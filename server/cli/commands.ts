import { parseArgs } from 'node:util';

export interface CliRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: unknown;
  /** Human-readable rendering of a successful response. */
  render: (body: Record<string, unknown>) => string;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export const USAGE = `Usage: npm run svc -- <command> [options] [--json]

  account create --name NAME [--email EMAIL]
  license create --account ACCOUNT_ID --plan PLAN --seats N --domains a.com,*.b.com (--trial-days N | --paid-through YYYY-MM-DD)
  license show LICENSE_ID
  license revoke LICENSE_ID
  apikey create --account ACCOUNT_ID --name NAME
  apikey list --account ACCOUNT_ID
  apikey revoke KEY_ID --account ACCOUNT_ID
  connect-code create --license LICENSE_ID --redirect-uri URL --code-challenge S256_CHALLENGE --site-domain DOMAIN
  user invite --account ACCOUNT_ID --email EMAIL --role owner|admin|viewer
  keys rotate
  demo seed

Secrets (license keys, API keys, codes) are printed once, at creation, and never stored in clear.`;

const OPTIONS = {
  json: { type: 'boolean' },
  help: { type: 'boolean', short: 'h' },
  name: { type: 'string' },
  email: { type: 'string' },
  account: { type: 'string' },
  plan: { type: 'string' },
  seats: { type: 'string' },
  domains: { type: 'string' },
  'trial-days': { type: 'string' },
  'paid-through': { type: 'string' },
  license: { type: 'string' },
  'redirect-uri': { type: 'string' },
  'code-challenge': { type: 'string' },
  'site-domain': { type: 'string' },
  role: { type: 'string' },
} as const;

export function parseCli(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: argv,
    options: OPTIONS,
    allowPositionals: true,
    strict: true,
  });
  return { values, positionals, json: values.json === true, help: values.help === true };
}

type Values = ReturnType<typeof parseCli>['values'];

function required(values: Values, name: keyof Values): string {
  const value = values[name];
  if (typeof value !== 'string' || value === '') throw new UsageError(`--${name} is required`);
  return value;
}

function integer(text: string, name: string): number {
  if (!/^\d+$/.test(text)) throw new UsageError(`--${name} must be a whole number`);
  return Number(text);
}

const line = (pairs: [string, unknown][]) => pairs.map(([k, v]) => `${k.padEnd(14)} ${v ?? '—'}`).join('\n');

function renderLicense(body: Record<string, unknown>): string {
  const l = body.license as Record<string, unknown>;
  const rows: [string, unknown][] = [
    ['license', l.id],
    ['account', l.accountId],
    ['status', l.status],
    ['plan', l.plan],
    ['seats', l.seats],
    ['domains', (l.allowedDomains as string[]).join(', ')],
    ['trial ends', l.trialEndsAt],
    ['paid through', l.paidThrough],
    ['grace ends', l.graceEndsAt],
    ['revoked', l.revokedAt],
    ['key', body.licenseKey ?? `…${l.keyLast4}`],
  ];
  const activations = body.activations as Record<string, unknown>[] | undefined;
  const extra = activations?.length
    ? `\nactivations\n${activations.map((a) => `  ${a.domain} (${a.env})${a.releasedAt ? ' released' : ''}`).join('\n')}`
    : '';
  const note = body.licenseKey ? '\n\nStore the key now: it is not shown again.' : '';
  return line(rows) + extra + note;
}

/** Maps a command line to an admin API call. */
export function toRequest(positionals: string[], values: Values): CliRequest {
  const [noun, verb, arg] = positionals;
  switch (`${noun} ${verb}`) {
    case 'account create':
      return {
        method: 'POST',
        path: '/admin/v1/accounts',
        body: { name: required(values, 'name'), ...(values.email ? { email: values.email } : {}) },
        render: (b) =>
          line([
            ['account', (b.account as { id: string }).id],
            ['name', (b.account as { name: string }).name],
          ]),
      };
    case 'license create': {
      const trial = values['trial-days'];
      const paid = values['paid-through'];
      if (!trial && !paid) throw new UsageError('--trial-days or --paid-through is required');
      return {
        method: 'POST',
        path: '/admin/v1/licenses',
        body: {
          accountId: required(values, 'account'),
          plan: required(values, 'plan'),
          seats: integer(required(values, 'seats'), 'seats'),
          domains: required(values, 'domains')
            .split(',')
            .map((d) => d.trim())
            .filter(Boolean),
          ...(trial ? { trialDays: integer(trial, 'trial-days') } : {}),
          ...(paid ? { paidThrough: paid } : {}),
        },
        render: renderLicense,
      };
    }
    case 'license show':
    case 'license revoke':
      if (!arg) throw new UsageError(`license ${verb} needs a LICENSE_ID`);
      return {
        method: verb === 'show' ? 'GET' : 'POST',
        path: `/admin/v1/licenses/${encodeURIComponent(arg)}${verb === 'revoke' ? '/revoke' : ''}`,
        render: renderLicense,
      };
    case 'apikey create':
      return {
        method: 'POST',
        path: '/admin/v1/api-keys',
        body: { accountId: required(values, 'account'), name: required(values, 'name') },
        render: (b) =>
          `${line([
            ['id', b.id],
            ['name', b.name],
            ['api key', b.apiKey],
          ])}\n\nStore the key now: it is not shown again.`,
      };
    case 'apikey list':
      return {
        method: 'GET',
        path: `/admin/v1/accounts/${encodeURIComponent(required(values, 'account'))}/api-keys`,
        render: (b) =>
          (b.apiKeys as Record<string, unknown>[])
            .map((k) => `${k.id}  …${k.keyLast4}  ${k.name}${k.revokedAt ? '  (revoked)' : ''}`)
            .join('\n') || 'no API keys',
      };
    case 'apikey revoke':
      if (!arg) throw new UsageError('apikey revoke needs a KEY_ID');
      return {
        method: 'POST',
        path: `/admin/v1/accounts/${encodeURIComponent(required(values, 'account'))}/api-keys/${encodeURIComponent(arg)}/revoke`,
        render: () => `revoked ${arg}`,
      };
    case 'connect-code create':
      return {
        method: 'POST',
        path: '/admin/v1/connect-codes',
        body: {
          licenseId: required(values, 'license'),
          redirectUri: required(values, 'redirect-uri'),
          codeChallenge: required(values, 'code-challenge'),
          siteDomain: required(values, 'site-domain'),
        },
        render: (b) =>
          line([
            ['code', b.code],
            ['expires at', b.expiresAt],
          ]),
      };
    case 'user invite': {
      const role = required(values, 'role');
      if (!['owner', 'admin', 'viewer'].includes(role))
        throw new UsageError('--role must be owner, admin or viewer');
      return {
        method: 'POST',
        path: '/admin/v1/users/invite',
        body: { accountId: required(values, 'account'), email: required(values, 'email'), role },
        render: (b) =>
          `${line([
            ['user', b.userId],
            ['expires at', b.expiresAt],
          ])}\n\nSign-in link (single use):\n${b.link}`,
      };
    }
    case 'keys rotate':
      return {
        method: 'POST',
        path: '/admin/v1/signing-keys/rotate',
        render: (b) => line(Object.entries(b)),
      };
    case 'demo seed':
      return {
        method: 'POST',
        path: '/admin/v1/demo/seed',
        render: (b) => {
          const d = b.demo as Record<string, unknown>;
          return line([
            ['license key', d.licenseKey],
            ['api key', d.apiKey],
            ['created now', d.created],
          ]);
        },
      };
    default:
      throw new UsageError(noun ? `unknown command "${positionals.join(' ')}"` : 'no command given');
  }
}
