import { parseArgs } from 'node:util';
import { parseOverlap } from '../domain/licensing/keys.ts';
import type {
  AdminAccountCreated,
  AdminApiKeyCreated,
  AdminApiKeyList,
  AdminConnectCode,
  AdminDemoCredentials,
  AdminDemoSeed,
  AdminInvite,
  AdminKeyRolled,
  AdminKeyRotation,
} from '../routes/api-types.ts';
import { DELIVERY_OPTIONS, DELIVERY_USAGE, deliveryRequest } from './delivery-commands.ts';
import { DESTINATION_OPTIONS, DESTINATION_USAGE, destinationRequest } from './destination-commands.ts';
import {
  LIFECYCLE_OPTIONS,
  LIFECYCLE_USAGE,
  LifecycleUsageError,
  lifecycleRequest,
  renderLicenseDetail,
} from './lifecycle-commands.ts';
import { rendering } from './rendering.ts';

export interface CliRequest {
  method: 'GET' | 'POST' | 'PATCH' | 'DELETE';
  path: string;
  body?: unknown;
  /** Human-readable rendering of a successful response; made with `rendering` for its route's type. */
  render: (body: unknown) => string;
}

export class UsageError extends Error {
  override name = 'UsageError';
}

export const USAGE = `Usage: npm run svc -- <command> [options] [--json]

  account create --name NAME [--email EMAIL]
  license create --account ACCOUNT_ID --plan PLAN --seats N --domains a.com,*.b.com (--trial-days N | --paid-through YYYY-MM-DD)
  license revoke LICENSE_ID
  license roll-key LICENSE_ID --kind publishable|secret [--overlap 24h | --now]
${LIFECYCLE_USAGE}
  apikey create --account ACCOUNT_ID --name NAME [--scopes leads:read,leads:write,leads:export,billing,admin]
  apikey list --account ACCOUNT_ID
  apikey revoke KEY_ID --account ACCOUNT_ID
  connect-code create --license LICENSE_ID --redirect-uri URL --code-challenge S256_CHALLENGE --site-domain DOMAIN
  user invite --account ACCOUNT_ID --email EMAIL --role owner|admin|viewer
  keys rotate
  demo seed [--account ACCOUNT_ID --leads N [--days 365]]
  demo credentials             (the demo firm's keys and a fresh owner sign-in link, again)
${DELIVERY_USAGE}
${DESTINATION_USAGE}

Two keys per license: the publishable key (svc_pk_…) goes in pages as the loader's data-key; the
secret license key (SVC-…) is for site activation from a plugin or server only. Secrets (secret
license keys, API keys, codes) are printed once, at creation, and never stored in clear. API keys
get the scopes named (default leads:read).`;

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
  kind: { type: 'string' },
  overlap: { type: 'string' },
  now: { type: 'boolean' },
  scopes: { type: 'string' },
  leads: { type: 'string' },
  days: { type: 'string' },
  ...LIFECYCLE_OPTIONS,
  ...DELIVERY_OPTIONS,
  ...DESTINATION_OPTIONS,
} as const;

/**
 * `--code-challenge -Xy…` means the value `-Xy…`: node's parser calls a value that begins with `-`
 * ambiguous (one PKCE challenge in 64 does), so a string option followed by anything that is not
 * itself an option of ours is joined into `--code-challenge=-Xy…` first.
 */
function joinDashValues(argv: string[]): string[] {
  const options = OPTIONS as Record<string, { type: string; short?: string }>;
  const isOption = (arg: string) =>
    arg === '--' ||
    (arg.startsWith('--') && arg.slice(2).split('=')[0]! in options) ||
    Object.values(options).some((o) => o.short !== undefined && arg === `-${o.short}`);
  const out: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    const next = argv[i + 1];
    const name = arg.startsWith('--') && !arg.includes('=') ? arg.slice(2) : undefined;
    if (name && options[name]?.type === 'string' && next?.startsWith('-') && !isOption(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else out.push(arg);
  }
  return out;
}

export function parseCli(argv: string[]) {
  const { values, positionals } = parseArgs({
    args: joinDashValues(argv),
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

/** Maps a command line to an admin API call. */
export function toRequest(positionals: string[], values: Values): CliRequest {
  const [noun, verb, arg] = positionals;
  switch (`${noun} ${verb}`) {
    case 'account create':
      return {
        method: 'POST',
        path: '/admin/v1/accounts',
        body: { name: required(values, 'name'), ...(values.email ? { email: values.email } : {}) },
        render: rendering((b: AdminAccountCreated) =>
          line([
            ['account', b.account.id],
            ['name', b.account.name],
          ]),
        ),
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
        render: rendering(renderLicenseDetail),
      };
    }
    case 'license revoke':
      if (!arg) throw new UsageError(`license ${verb} needs a LICENSE_ID`);
      return {
        method: 'POST',
        path: `/admin/v1/licenses/${encodeURIComponent(arg)}/revoke`,
        render: rendering(renderLicenseDetail),
      };
    case 'license roll-key': {
      if (!arg) throw new UsageError('license roll-key needs a LICENSE_ID');
      const kind = required(values, 'kind');
      if (kind !== 'publishable' && kind !== 'secret')
        throw new UsageError('--kind must be publishable or secret');
      if (values.now && values.overlap) throw new UsageError('give --overlap or --now, not both');
      let overlapSeconds: number | undefined;
      if (values.now) overlapSeconds = 0;
      else if (values.overlap) {
        const ms = parseOverlap(values.overlap);
        if (ms === undefined) throw new UsageError('--overlap takes a duration such as 90m, 24h or 7d');
        overlapSeconds = ms / 1000;
      }
      return {
        method: 'POST',
        path: `/admin/v1/licenses/${encodeURIComponent(arg)}/roll-key`,
        body: { kind, ...(overlapSeconds === undefined ? {} : { overlapSeconds }) },
        render: rendering(
          (b: AdminKeyRolled) =>
            `${line([
              ['kind', b.kind],
              [kind === 'secret' ? 'secret key' : 'publishable', b.licenseKey ?? b.publishableKey],
              ['old key ends', b.previousKeysEndAt],
            ])}${kind === 'secret' ? '\n\nStore the key now: it is not shown again.' : ''}`,
        ),
      };
    }
    case 'apikey create': {
      const scopes = values.scopes
        ?.split(',')
        .map((s) => s.trim())
        .filter(Boolean);
      return {
        method: 'POST',
        path: '/admin/v1/api-keys',
        body: {
          accountId: required(values, 'account'),
          name: required(values, 'name'),
          ...(scopes ? { scopes } : {}),
        },
        render: rendering(
          (b: AdminApiKeyCreated) =>
            `${line([
              ['id', b.id],
              ['name', b.name],
              ['scopes', b.scopes.join(' ')],
              ['api key', b.apiKey],
            ])}\n\nStore the key now: it is not shown again.`,
        ),
      };
    }
    case 'apikey list':
      return {
        method: 'GET',
        path: `/admin/v1/accounts/${encodeURIComponent(required(values, 'account'))}/api-keys`,
        render: rendering(
          (b: AdminApiKeyList) =>
            b.apiKeys
              .map(
                (k) =>
                  `${k.id}  …${k.keyLast4}  ${k.name}  [${k.scopes.join(' ')}]${k.revokedAt ? '  (revoked)' : ''}`,
              )
              .join('\n') || 'no API keys',
        ),
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
        render: rendering((b: AdminConnectCode) =>
          line([
            ['code', b.code],
            ['expires at', b.expiresAt],
          ]),
        ),
      };
    case 'user invite': {
      const role = required(values, 'role');
      if (!['owner', 'admin', 'viewer'].includes(role))
        throw new UsageError('--role must be owner, admin or viewer');
      return {
        method: 'POST',
        path: '/admin/v1/users/invite',
        body: { accountId: required(values, 'account'), email: required(values, 'email'), role },
        render: rendering(
          (b: AdminInvite) =>
            `${line([
              ['user', b.userId],
              ['expires at', b.expiresAt],
            ])}\n\nSign-in link (single use):\n${b.link}`,
        ),
      };
    }
    case 'keys rotate':
      return {
        method: 'POST',
        path: '/admin/v1/signing-keys/rotate',
        render: rendering((b: AdminKeyRotation) =>
          line([
            ['published', b.published],
            ['activated', b.activated],
            ['retired', b.retired],
          ]),
        ),
      };
    case 'demo credentials':
      return {
        method: 'POST',
        path: '/admin/v1/demo/credentials',
        render: rendering(({ demo: d }: AdminDemoCredentials) =>
          line([
            ['publishable', d.publishableKey],
            ['secret key', d.licenseKey],
            ['api key', d.apiKey],
            ['account', d.accountId],
            ['license', d.licenseId],
            ['portal', d.signInLink],
          ]),
        ),
      };
    case 'demo seed':
      if (values.account) {
        if (!values.leads) throw new UsageError('--leads is required with --account');
        return {
          method: 'POST',
          path: '/admin/v1/demo/seed',
          body: {
            accountId: values.account,
            leads: integer(values.leads, 'leads'),
            ...(values.days ? { days: integer(values.days, 'days') } : {}),
          },
          render: rendering((b: AdminDemoSeed) => {
            if (!('seeded' in b)) throw new Error('expected generated leads, got the demo firm');
            const s = b.seeded;
            return line([
              ['account', s.accountId],
              ['leads added', s.leads],
              ['spread over', `${s.days} days`],
              ['took', `${s.ms} ms`],
            ]);
          }),
        };
      }
      return {
        method: 'POST',
        path: '/admin/v1/demo/seed',
        render: rendering((b: AdminDemoSeed) => {
          if (!('demo' in b)) throw new Error('expected the demo firm, got generated leads');
          const d = b.demo;
          return line([
            ['publishable', d.publishableKey],
            ['secret key', d.licenseKey],
            ['api key', d.apiKey],
            ['account', d.accountId],
            ['license', d.licenseId],
            ['created now', d.created],
          ]);
        }),
      };
    default: {
      const lifecycle = lifecycleCommand(positionals, values);
      if (lifecycle) return lifecycle;
      const delivery = deliveryRequest(positionals, values, (message) => new UsageError(message));
      if (delivery) return delivery;
      const destination = destinationRequest(positionals, values, (message) => new UsageError(message));
      if (destination) return destination;
      throw new UsageError(noun ? `unknown command "${positionals.join(' ')}"` : 'no command given');
    }
  }
}

function lifecycleCommand(positionals: string[], values: Values): CliRequest | undefined {
  try {
    return lifecycleRequest(positionals, values);
  } catch (error) {
    throw error instanceof LifecycleUsageError ? new UsageError(error.message) : error;
  }
}
