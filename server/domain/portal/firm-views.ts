import { domainToUnicode } from 'node:url';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { countLiveProdActivations, listActivationsByLicense } from '../../db/repos/activations-repo.ts';
import { listApiKeysByAccount } from '../../db/repos/api-keys-repo.ts';
import { listAuditByAccount } from '../../db/repos/audit-repo.ts';
import type { LicenseRow } from '../../db/repos/licenses-repo.ts';
import { listLicensesByAccount } from '../../db/repos/licenses-repo.ts';
import { countLeadsBetween } from '../../db/repos/portal-stats-repo.ts';
import { listMembers } from '../../db/repos/users-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { PortalPrincipal } from '../accounts/portal-deps.ts';
import { parseScopes } from '../credentials/scopes.ts';
import { licenseKeysView } from '../licensing/keys.ts';
import { idleCutoff } from '../licensing/seat-idleness.ts';
import { licenseOutlook } from '../licensing/status.ts';
import { ACTIVITY_KINDS, type ActivityKind } from './activity-kinds.ts';
import type { PortalAppDeps } from './deps.ts';
import { hiddenTestLeads, pageOfFirmLeads } from './firm-leads.ts';

const iso = (d: Date | null | undefined) => d?.toISOString() ?? null;

/** A domain as stored (ASCII, punycode) and as people read it (Unicode). */
export function domainView(entry: string) {
  const wildcard = entry.startsWith('*.');
  const host = wildcard ? entry.slice(2) : entry;
  const unicode = domainToUnicode(host) || host;
  return { ascii: entry, unicode: wildcard ? `*.${unicode}` : unicode };
}

async function licenseView(deps: PortalAppDeps, license: LicenseRow, withActivations: boolean) {
  const now = deps.clock.now();
  const seatsUsed = await countLiveProdActivations(deps.db, license.id, idleCutoff(now));
  const outlook = licenseOutlook(license, seatsUsed, now);
  const { state } = outlook;
  const activations = withActivations
    ? (await listActivationsByLicense(deps.db, license.id))
        .filter((a) => !a.releasedAt)
        .map((a) => ({
          id: a.id,
          domain: domainView(a.domain),
          env: a.env,
          firstSeenAt: iso(a.firstSeenAt),
          lastSeenAt: iso(a.lastSeenAt),
        }))
    : undefined;
  // The current publishable key is the loader's data-key (public by design); rolled keys still
  // inside their overlap are listed by their last four only.
  const keys = await licenseKeysView(deps.db, license.id, now);
  return {
    id: license.id,
    plan: license.plan,
    status: state.status,
    seats: license.seats,
    seatsUsed,
    keyLast4: license.keyLast4,
    publishableKey: keys.publishableKey,
    overlappingKeys: keys.overlapping,
    next: outlook.next,
    renewsAt: iso(outlook.renewsAt),
    cancelAt: iso(outlook.cancelAt),
    domains: license.allowedDomains.map(domainView),
    trialEndsAt: iso(license.trialEndsAt),
    paidThrough: iso(license.paidThrough),
    graceEndsAt: iso(state.graceEndsAt),
    expiresAt: iso(state.expiresAt),
    revokedAt: iso(license.revokedAt),
    createdAt: iso(license.createdAt),
    ...(activations ? { activations } : {}),
  };
}

export async function listFirmLicenses(deps: PortalAppDeps, principal: PortalPrincipal) {
  const rows = await listLicensesByAccount(deps.db, principal.accountId);
  return Promise.all(rows.map((l) => licenseView(deps, l, true)));
}

export async function firmLicense(deps: PortalAppDeps, principal: PortalPrincipal, id: string) {
  const row = (await listLicensesByAccount(deps.db, principal.accountId)).find((l) => l.id === id);
  if (!row) throw new AppError('NOT_FOUND', 'No such license.');
  return licenseView(deps, row, true);
}

function monthStart(now: Date, offset: number): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() + offset, 1));
}

/**
 * The Overview page: licenses, this month's leads so far against the same stretch of last month (the
 * 1st up to the same day and time, cut at last month's end), never a partial month against a whole
 * one; the latest leads.
 */
export async function firmOverview(deps: PortalAppDeps, principal: PortalPrincipal) {
  const now = deps.clock.now();
  const thisMonth = monthStart(now, 0);
  const lastMonth = monthStart(now, -1);
  const sameStretch = new Date(
    Math.min(lastMonth.getTime() + (now.getTime() - thisMonth.getTime()), thisMonth.getTime()),
  );
  const [account, licenses, leadsThisMonth, leadsLastMonth, latest, hiddenTest] = await Promise.all([
    findAccountById(deps.db, principal.accountId),
    listLicensesByAccount(deps.db, principal.accountId),
    countLeadsBetween(deps.db, principal.accountId, thisMonth, monthStart(now, 1)),
    countLeadsBetween(deps.db, principal.accountId, lastMonth, sameStretch),
    pageOfFirmLeads(deps, principal.accountId, { limit: 5 }),
    hiddenTestLeads(deps, principal.accountId, {}),
  ]);
  return {
    firm: { id: principal.accountId, name: account?.name ?? '' },
    licenses: await Promise.all(licenses.map((l) => licenseView(deps, l, false))),
    leads: { thisMonth: leadsThisMonth, lastMonth: leadsLastMonth, latest: latest.data, hiddenTest },
    now: now.toISOString(),
  };
}

/** What the Licenses page offers for billing: Checkout needs Stripe; the plans a firm can buy. */
export const billingOptions = (deps: PortalAppDeps) => ({
  checkout: Boolean(deps.billing.stripe),
  plans: Object.keys(deps.billing.plans).filter((name) => name !== 'trial'),
});

export async function listFirmApiKeys(deps: PortalAppDeps, principal: PortalPrincipal) {
  const [keys, members] = await Promise.all([
    listApiKeysByAccount(deps.db, principal.accountId),
    listMembers(deps.db, principal.accountId),
  ]);
  const emailOf = new Map(members.map((m) => [m.userId, m.email]));
  return keys
    .map((k) => ({
      id: k.id,
      name: k.name,
      prefix: 'svc_pat_',
      last4: k.keyLast4,
      scopes: parseScopes(k.scopes),
      createdBy: k.createdBy ? (emailOf.get(k.createdBy) ?? 'a former member') : 'operator',
      createdAt: iso(k.createdAt)!,
      lastUsedAt: iso(k.lastUsedAt),
      revokedAt: iso(k.revokedAt),
      expiresAt: iso(k.expiresAt),
    }))
    .reverse();
}

/** The audit trail of the firm, newest first, optionally one kind of entry (see ACTIVITY_KINDS). */
export async function firmActivity(
  deps: PortalAppDeps,
  principal: PortalPrincipal,
  opts: { limit: number; cursor?: string; kind?: ActivityKind },
) {
  const before = opts.cursor ? decodeCursor(opts.cursor) : undefined;
  const rows = await listAuditByAccount(deps.db, principal.accountId, {
    limit: opts.limit + 1,
    ...(before ? { before } : {}),
    ...(opts.kind ? { actions: ACTIVITY_KINDS[opts.kind] } : {}),
  });
  const page = rows.slice(0, opts.limit);
  const last = page.at(-1);
  const keyNames = page.some((e) => e.actor.startsWith('apikey:') || e.action === 'apikey.revoked')
    ? new Map((await listApiKeysByAccount(deps.db, principal.accountId)).map((k) => [k.id, k.name]))
    : new Map<string, string>();
  return {
    data: page.map((e) => ({
      id: e.id,
      at: e.createdAt.toISOString(),
      actor: e.actor,
      actorLabel: actorLabel(e.actor, keyNames),
      ...(e.action === 'apikey.revoked' && e.subject && keyNames.has(e.subject)
        ? { subjectLabel: keyNames.get(e.subject) }
        : {}),
      action: e.action,
      subject: e.subject,
      data: e.data,
    })),
    nextCursor:
      rows.length > opts.limit && last
        ? Buffer.from(`${last.createdAt.toISOString()}|${last.id}`).toString('base64url')
        : null,
  };
}

/** Who acted, as a person reads it: a member's e-mail, an API key by name, the operator, Stripe. */
function actorLabel(actor: string, keyNames: Map<string, string>): string {
  if (actor.startsWith('user:')) return actor.slice(5);
  if (actor.startsWith('apikey:')) {
    const name = keyNames.get(actor.slice(7));
    return name ? `API key “${name}”` : 'An API key';
  }
  if (actor.startsWith('access:')) return `Connected site ${actor.slice(7)}`;
  const named: Record<string, string> = {
    admin: 'Operator',
    operator: 'Operator',
    cli: 'Operator',
    stripe: 'Stripe',
    limits: 'svc (plan limits)',
    embed: 'svc (widget check)',
    refresh: 'svc (token check)',
    exchange: 'svc (token check)',
    retention: 'svc (retention)',
    demo: 'svc (demo set-up)',
  };
  return named[actor] ?? actor;
}

function decodeCursor(cursor: string) {
  const [at, id] = Buffer.from(cursor, 'base64url').toString().split('|');
  const createdAt = new Date(at ?? '');
  if (!id || Number.isNaN(createdAt.getTime())) throw new AppError('INVALID_REQUEST', 'cursor is not valid.');
  return { createdAt, id };
}
