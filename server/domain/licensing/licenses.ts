import { withTransaction } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  findLicenseById,
  insertLicense,
  revokeLicense as revokeLicenseRow,
} from '../../db/repos/licenses-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { requireAccount } from '../accounts/accounts.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import { generateLicenseKey, generatePublishableKey, hmacSecret, lastFour } from '../credentials/formats.ts';
import type { LicensingDeps } from '../deps.ts';
import { normalizeDomainEntry, requirePlan } from './input.ts';
import { storeLicenseKeys } from './keys.ts';
import type { PlanTable } from './plans.ts';

const DAY_MS = 86_400_000;

/**
 * Licenses as the admin CLI, the admin API, billing and the demo seed create and revoke them. The
 * secret key is returned once, here, and stored only as an HMAC.
 */
export interface NewLicenseInput {
  accountId: string;
  plan: string;
  seats: number;
  domains: string[];
  trialDays?: number;
  paidThrough?: Date;
  /** Only for the demo seed, whose keys are derived rather than random. */
  licenseKey?: string;
  publishableKey?: string;
}

/** `plans` (the configured plan table) refuses unknown plan names; the demo seed and tests omit it. */
export async function createLicense(deps: LicensingDeps, input: NewLicenseInput, plans?: PlanTable) {
  if (plans) requirePlan(plans, input.plan);
  const allowedDomains = input.domains.map((entry) => normalizeDomainEntry(entry));
  if (!Number.isInteger(input.seats) || input.seats < 0)
    throw new AppError('INVALID_REQUEST', 'seats must be a whole number ≥ 0.');
  if (input.trialDays === undefined && input.paidThrough === undefined) {
    throw new AppError('INVALID_REQUEST', 'A license needs --trial-days or --paid-through.');
  }
  await requireAccount(deps, input.accountId);
  const now = deps.clock.now();
  const licenseKey = input.licenseKey ?? generateLicenseKey();
  const publishableKey = input.publishableKey ?? generatePublishableKey();
  const license = await withTransaction(deps.db, async (tx) => {
    const row = await insertLicense(tx, {
      id: newId('lic'),
      accountId: input.accountId,
      keyHmac: hmacSecret(deps.pepper, licenseKey),
      keyLast4: lastFour(licenseKey),
      plan: input.plan,
      seats: input.seats,
      allowedDomains,
      trialEndsAt: input.trialDays !== undefined ? new Date(now.getTime() + input.trialDays * DAY_MS) : null,
      paidThrough: input.paidThrough ?? null,
      revokedAt: null,
      createdAt: now,
      updatedAt: now,
      legacySecretEmbed: false,
    });
    await storeLicenseKeys(deps, tx, row.id, { licenseKey, publishableKey });
    return row;
  });
  return { license, licenseKey, publishableKey };
}

/** Revokes a license (every token stops on its next request); audited, a second revoke changes nothing. */
export async function revokeLicense(deps: LicensingDeps, licenseId: string, actor = 'operator') {
  const license = await findLicenseById(deps.db, licenseId);
  if (!license) throw new AppError('NOT_FOUND', `No license ${licenseId}.`);
  if (!license.revokedAt) {
    const now = deps.clock.now();
    await revokeLicenseRow(deps.db, licenseId, now);
    await recordAudit(deps.db, {
      accountId: license.accountId,
      actor,
      action: 'license.revoked',
      subject: licenseId,
      data: { before: { revokedAt: null }, after: { revokedAt: now.toISOString() } },
      at: now,
    });
    await invalidateCaches(deps);
  }
  return (await findLicenseById(deps.db, licenseId))!;
}
