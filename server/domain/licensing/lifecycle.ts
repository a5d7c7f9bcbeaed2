import { type Db, withTransaction } from '../../db/engine/database.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import {
  type ActivationRow,
  findActivation,
  listActivationsByLicense,
  listLiveActivations,
  lockLicense,
  releaseActivation,
} from '../../db/repos/activations-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  findLicenseById,
  type LicenseChanges,
  type LicenseRow,
  listLicensesByAccount,
  updateLicense as updateLicenseRow,
} from '../../db/repos/licenses-repo.ts';
import { revokeActivationTokens } from '../../db/repos/refresh-tokens-repo.ts';
import { diff } from '../../lib/audit-diff.ts';
import { AppError, notFound } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import type { ActingAs, LicensingDeps } from '../deps.ts';
import { isDevHost, isDomainAllowed } from './domains.ts';
import { type LicenseUpdate, normalizeDomainEntry, requirePlan } from './input.ts';
import { licenseKeysView } from './keys.ts';
import { toActivationView, toLicenseView } from './license-view.ts';
import type { PlanTable } from './plans.ts';
import { isIdleActivation } from './seat-idleness.ts';

export interface LifecycleDeps extends LicensingDeps {
  plans: PlanTable;
}

/** Live production activations that hold a seat (idle ones hold none; see site-activation.ts). */
const seatHolders = (rows: ActivationRow[], now: Date) =>
  rows.filter((a) => a.env === 'prod' && !a.releasedAt && !isIdleActivation(a, now));

async function requireLicense(db: Db, id: string, scope?: { accountId?: string }): Promise<LicenseRow> {
  const license = await findLicenseById(db, id);
  if (!license || (scope?.accountId && license.accountId !== scope.accountId)) throw notFound('license', id);
  return license;
}

/** `license list --account`: the account's licenses with status and seats used. */
export async function listLicenses(deps: LicensingDeps, accountId: string, scope?: { accountId?: string }) {
  const account = await findAccountById(deps.db, accountId);
  if (!account || (scope?.accountId && scope.accountId !== accountId)) throw notFound('account', accountId);
  const now = deps.clock.now();
  const licenses = await listLicensesByAccount(deps.db, accountId);
  return Promise.all(
    licenses.map(async (license) =>
      toLicenseView(license, seatHolders(await listLiveActivations(deps.db, license.id), now).length, now),
    ),
  );
}

/** `license show`: status, dates, seats used and every activation (live and released) with its id. */
export async function showLicense(deps: LicensingDeps, licenseId: string, scope?: { accountId?: string }) {
  const license = await requireLicense(deps.db, licenseId, scope);
  const now = deps.clock.now();
  const activations = await listActivationsByLicense(deps.db, license.id);
  return {
    license: toLicenseView(license, seatHolders(activations, now).length, now),
    ...(await licenseKeysView(deps.db, license.id, now)),
    activations: activations.map((a) => toActivationView(a, now)),
  };
}

/**
 * `license update`: domains, seats, plan, paid-through and trial-end dates, in one transaction on
 * the locked license row (activation counts seats under the same lock, so no activation slips in
 * between the check and the write). Removing a domain ends the activations it no longer covers:
 * their refresh families are revoked and their seats freed at once, their access tokens fail on the
 * next request (the activation is released) and so do embed tokens for that host (authenticate.ts
 * checks the token's domain against the list). Lowering seats below the production sites still
 * active is refused, naming the activations to release first: an operator decides which site goes,
 * never the code. (Stripe, which cannot be refused, goes over seat instead: see stripe-sync.ts.)
 * Every change is audited with its before and after values.
 */
export async function updateLicense(
  deps: LifecycleDeps,
  licenseId: string,
  input: LicenseUpdate,
  as: ActingAs,
) {
  const now = deps.clock.now();
  await requireLicense(deps.db, licenseId, as);
  if (input.plan !== undefined) requirePlan(deps.plans, input.plan);
  const add = (input.addDomains ?? []).map((d) => normalizeDomainEntry(d, 'addDomains'));
  const remove = (input.removeDomains ?? []).map((d) => normalizeDomainEntry(d, 'removeDomains'));
  await withTransaction(deps.db, async (tx) => {
    await lockLicense(tx, licenseId);
    const license = (await findLicenseById(tx, licenseId))!;
    const changes = licenseChanges(license, input, add, remove);
    const live = await listLiveActivations(tx, licenseId);
    const allowed = changes.allowedDomains ?? license.allowedDomains;
    const ended = live.filter(
      (a) => a.env === 'prod' && !isDevHost(a.domain) && !isDomainAllowed(a.domain, allowed),
    );
    const remaining = seatHolders(live, now).filter((a) => !ended.includes(a));
    if (changes.seats !== undefined && changes.seats < remaining.length)
      throw seatsInUse(changes.seats, remaining);
    for (const activation of ended) await endActivation(tx, activation.id, now);
    if (Object.keys(changes).length === 0 && ended.length === 0) return;
    await updateLicenseRow(tx, licenseId, changes, now);
    await recordAudit(tx, {
      accountId: license.accountId,
      actor: as.actor,
      action: 'license.updated',
      subject: licenseId,
      data: {
        ...diff(license, changes),
        ...(ended.length ? { releasedActivations: ended.map((a) => ({ id: a.id, domain: a.domain })) } : {}),
      },
      at: now,
    });
  });
  await invalidateCaches(deps);
  return showLicense(deps, licenseId);
}

function licenseChanges(
  license: LicenseRow,
  input: LicenseUpdate,
  add: string[],
  remove: string[],
): LicenseChanges {
  const changes: LicenseChanges = {};
  for (const entry of remove) {
    if (!license.allowedDomains.includes(entry)) {
      const message = `${entry} is not in the allowed domains (${license.allowedDomains.join(', ') || 'none'}).`;
      throw new AppError('INVALID_REQUEST', message, { details: [{ path: 'removeDomains', message }] });
    }
  }
  const domains = [...license.allowedDomains.filter((d) => !remove.includes(d)), ...add].filter(
    (d, i, all) => all.indexOf(d) === i,
  );
  if (domains.join('\n') !== license.allowedDomains.join('\n')) changes.allowedDomains = domains;
  if (input.seats !== undefined && input.seats !== license.seats) changes.seats = input.seats;
  if (input.plan !== undefined && input.plan !== license.plan) changes.plan = input.plan;
  if (input.paidThrough && input.paidThrough.getTime() !== license.paidThrough?.getTime())
    changes.paidThrough = input.paidThrough;
  if (input.trialEndsAt && input.trialEndsAt.getTime() !== license.trialEndsAt?.getTime())
    changes.trialEndsAt = input.trialEndsAt;
  return changes;
}

function seatsInUse(seats: number, live: ActivationRow[]): AppError {
  const release = live.length - seats;
  const names = live.map(
    (a) => `${a.id} (${a.domain}, last seen ${a.lastSeenAt.toISOString().slice(0, 10)})`,
  );
  const message = `${live.length} sites use seats; release ${release} of them before lowering seats to ${seats}: ${names.join(', ')}.`;
  return new AppError('SEATS_IN_USE', message, {
    details: live.map((a) => ({ path: `activations.${a.id}`, message: a.domain })),
  });
}

/** Before and after of the changed fields, dates as ISO strings, for the audit trail. */
async function endActivation(tx: Db, activationId: string, at: Date): Promise<void> {
  await revokeActivationTokens(tx, activationId, at);
  await releaseActivation(tx, activationId, at);
}

/**
 * `activation release`: frees the activation's seat and revokes its refresh families; its access
 * tokens fail on the next request because authentication reads the activation each time. Releasing
 * an activation that is already released changes nothing and is not an error.
 */
export async function releaseSeat(deps: LicensingDeps, activationId: string, as: ActingAs) {
  const activation = await findActivation(deps.db, activationId);
  const license = activation ? await findLicenseById(deps.db, activation.licenseId) : undefined;
  if (!activation || !license || (as.accountId && license.accountId !== as.accountId))
    throw notFound('activation', activationId);
  if (!activation.releasedAt) {
    const now = deps.clock.now();
    await withTransaction(deps.db, async (tx) => {
      await endActivation(tx, activationId, now);
      await recordAudit(tx, {
        accountId: license.accountId,
        actor: as.actor,
        action: 'activation.released',
        subject: activationId,
        data: { licenseId: license.id, domain: activation.domain, env: activation.env },
        at: now,
      });
    });
    await invalidateCaches(deps);
  }
  return {
    activation: toActivationView((await findActivation(deps.db, activationId))!, deps.clock.now()),
    ...(await showLicense(deps, license.id)),
  };
}
