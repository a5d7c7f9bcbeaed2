import type {
  AdminAccountDetail,
  AdminAccountList,
  AdminActivationReleased,
  AdminLicenseCreated,
  AdminLicenseDetail,
  AdminLicenseList,
} from '../routes/api-types.ts';
import type { CliRequest } from './commands.ts';
import { rendering } from './rendering.ts';

/** Options of the lifecycle commands (merged into the CLI's option table). */
export const LIFECYCLE_OPTIONS = {
  'add-domains': { type: 'string' },
  'remove-domains': { type: 'string' },
  'trial-ends': { type: 'string' },
  'consent-text': { type: 'string' },
  'alert-emails': { type: 'string' },
  accent: { type: 'string' },
  'lead-retention': { type: 'string' },
} as const;

export const LIFECYCLE_USAGE = `  account list
  account show ACCOUNT_ID
  account update ACCOUNT_ID [--name NAME] [--consent-text TEXT] [--alert-emails a@x.com,b@x.com] [--accent #rrggbb] [--lead-retention MONTHS|off]
  license list --account ACCOUNT_ID
  license show LICENSE_ID
  license update LICENSE_ID [--add-domains a.com,*.b.com] [--remove-domains c.com] [--seats N] [--plan PLAN] [--paid-through YYYY-MM-DD] [--trial-ends YYYY-MM-DD]
  activation release ACTIVATION_ID`;

type Values = Record<string, string | boolean | undefined>;
type Body = Record<string, unknown>;

export class LifecycleUsageError extends Error {
  override name = 'UsageError';
}

const list = (text: string) =>
  text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);

function day(values: Values, name: string): string | undefined {
  const value = values[name];
  if (typeof value !== 'string') return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value))
    throw new LifecycleUsageError(`--${name} must be a date as YYYY-MM-DD`);
  return value;
}

function text(values: Values, name: string): string | undefined {
  const value = values[name];
  return typeof value === 'string' ? value : undefined;
}

const line = (pairs: [string, unknown][]) => pairs.map(([k, v]) => `${k.padEnd(14)} ${v ?? '—'}`).join('\n');
const dayOf = (iso: unknown) => (typeof iso === 'string' ? iso.slice(0, 10) : undefined);

/** `license show` / `update` / `revoke` (a detail) and `license create` (the new keys, shown once). */
type LicenseAnswer = AdminLicenseDetail | AdminLicenseCreated;

/** `license show` / `update` / `revoke` and `activation release` as a person reads them. */
export function renderLicenseDetail(body: LicenseAnswer): string {
  const l = body.license;
  const created = 'licenseKey' in body ? body : undefined;
  const detail = 'activations' in body ? body : undefined;
  const rows: [string, unknown][] = [
    ['license', l.id],
    ['account', l.accountId],
    ['status', l.status],
    ['next', l.next],
    ['plan', l.plan],
    ['seats', `${l.seatsUsed ?? 0} of ${l.seats} used${l.overSeat ? ' (over seat)' : ''}`],
    ['domains', l.allowedDomains.join(', ')],
    ['trial ends', dayOf(l.trialEndsAt)],
    ['paid through', dayOf(l.paidThrough)],
    ['grace ends', dayOf(l.graceEndsAt)],
    ['renews', dayOf(l.renewsAt)],
    ['cancels', dayOf(l.cancelAt)],
    ['revoked', dayOf(l.revokedAt)],
    ['publishable', body.publishableKey ?? '—'],
    ['secret key', created?.licenseKey ?? `…${l.keyLast4}`],
  ];
  for (const k of detail?.overlapping ?? []) rows.push([`old ${k.kind}`, `…${k.last4} until ${k.expiresAt}`]);
  const live = (detail?.activations ?? []).filter((a) => !a.releasedAt);
  const extra = live.length
    ? `\nactivations\n${live.map((a) => `  ${a.id}  ${a.domain} (${a.env})  last seen ${a.lastSeenAt}${a.idle ? '  idle (seat free)' : ''}`).join('\n')}`
    : '';
  const note = created
    ? '\n\nThe publishable key goes in pages (data-key). Store the secret key now, for plugins and servers only: it is not shown again.'
    : '';
  return line(rows) + extra + note;
}

function renderLicenseList({ licenses }: AdminLicenseList): string {
  if (licenses.length === 0) return 'no licenses';
  return licenses
    .map(
      (l) =>
        `${l.id}  ${l.status.padEnd(8)} ${l.plan}  ${l.seatsUsed}/${l.seats} seats  ${l.allowedDomains.join(', ')}\n    ${l.next}`,
    )
    .join('\n');
}

function renderAccount({ account: a }: AdminAccountDetail): string {
  const consent = a.consent;
  return line([
    ['account', a.id],
    ['name', a.name],
    ['email', a.email],
    ['accent', a.accentColor],
    ['alert emails', a.alertEmails.join(', ') || undefined],
    [
      'lead retention',
      a.leadRetentionMonths
        ? `erase leads not converted ${a.leadRetentionMonths} months after their last change`
        : 'off',
    ],
    ['consent', consent ? `v${consent.version}: ${consent.text}` : undefined],
    ['licenses', a.licenseIds.join(', ') || undefined],
    ['stripe', a.stripeCustomerId],
  ]);
}

function renderAccounts({ accounts }: AdminAccountList): string {
  if (accounts.length === 0) return 'no accounts';
  return accounts.map((a) => `${a.id}  ${a.name}  (${a.licenses} licenses)`).join('\n');
}

function licenseUpdateBody(values: Values): Body {
  const seats = text(values, 'seats');
  if (seats !== undefined && !/^\d+$/.test(seats))
    throw new LifecycleUsageError('--seats must be a whole number');
  const body: Body = {
    ...(text(values, 'add-domains') !== undefined ? { addDomains: list(text(values, 'add-domains')!) } : {}),
    ...(text(values, 'remove-domains') !== undefined
      ? { removeDomains: list(text(values, 'remove-domains')!) }
      : {}),
    ...(seats !== undefined ? { seats: Number(seats) } : {}),
    ...(text(values, 'plan') !== undefined ? { plan: text(values, 'plan') } : {}),
    ...(day(values, 'paid-through') ? { paidThrough: day(values, 'paid-through') } : {}),
    ...(day(values, 'trial-ends') ? { trialEndsAt: day(values, 'trial-ends') } : {}),
  };
  if (Object.keys(body).length === 0)
    throw new LifecycleUsageError(
      'license update needs at least one of --add-domains, --remove-domains, --seats, --plan, --paid-through, --trial-ends',
    );
  return body;
}

/** `--lead-retention 24` (months; the server checks 3 to 84) or `off`, as Settings → Firm sets it. */
function retentionOf(value: string | undefined): Body {
  if (value === undefined) return {};
  if (value === 'off') return { leadRetentionMonths: null };
  if (!/^\d+$/.test(value))
    throw new LifecycleUsageError('--lead-retention must be a number of months or off');
  return { leadRetentionMonths: Number(value) };
}

function accountUpdateBody(values: Values): Body {
  const accent = text(values, 'accent');
  if (accent !== undefined && !/^#[0-9a-fA-F]{6}$/.test(accent))
    throw new LifecycleUsageError('--accent must be a colour as #rrggbb');
  const body: Body = {
    ...(text(values, 'name') !== undefined ? { name: text(values, 'name') } : {}),
    ...(text(values, 'consent-text') !== undefined ? { consentText: text(values, 'consent-text') } : {}),
    ...(text(values, 'alert-emails') !== undefined
      ? { alertEmails: list(text(values, 'alert-emails')!) }
      : {}),
    ...(accent !== undefined ? { accentColor: accent } : {}),
    ...retentionOf(text(values, 'lead-retention')),
  };
  if (Object.keys(body).length === 0)
    throw new LifecycleUsageError(
      'account update needs at least one of --name, --consent-text, --alert-emails, --accent, --lead-retention',
    );
  return body;
}

const path = (...parts: string[]) => `/admin/v1/${parts.map(encodeURIComponent).join('/')}`;

function needs(arg: string | undefined, what: string): string {
  if (!arg) throw new LifecycleUsageError(`${what} is missing`);
  return arg;
}

/** The lifecycle commands, or undefined when the command is not one of them. */
export function lifecycleRequest(positionals: string[], values: Values): CliRequest | undefined {
  const [noun, verb, arg] = positionals;
  switch (`${noun} ${verb}`) {
    case 'account list':
      return { method: 'GET', path: path('accounts'), render: rendering(renderAccounts) };
    case 'account show':
      return {
        method: 'GET',
        path: path('accounts', needs(arg, 'ACCOUNT_ID')),
        render: rendering(renderAccount),
      };
    case 'account update':
      return {
        method: 'PATCH',
        path: path('accounts', needs(arg, 'ACCOUNT_ID')),
        body: accountUpdateBody(values),
        render: rendering(renderAccount),
      };
    case 'license list': {
      const account = text(values, 'account');
      if (!account) throw new LifecycleUsageError('--account is required');
      return {
        method: 'GET',
        path: path('accounts', account, 'licenses'),
        render: rendering(renderLicenseList),
      };
    }
    case 'license show':
      return {
        method: 'GET',
        path: path('licenses', needs(arg, 'LICENSE_ID')),
        render: rendering(renderLicenseDetail),
      };
    case 'license update':
      return {
        method: 'PATCH',
        path: path('licenses', needs(arg, 'LICENSE_ID')),
        body: licenseUpdateBody(values),
        render: rendering(renderLicenseDetail),
      };
    case 'activation release':
      return {
        method: 'POST',
        path: `${path('activations', needs(arg, 'ACTIVATION_ID'))}/release`,
        render: rendering(
          (b: AdminActivationReleased) =>
            `released ${b.activation.id} (${b.activation.domain})\n\n${renderLicenseDetail(b)}`,
        ),
      };
    default:
      return undefined;
  }
}
