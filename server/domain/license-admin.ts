import { findAccountById, insertAccount } from '../db/accounts-repo.ts';
import { insertApiKey, listApiKeysByAccount, revokeApiKey as revokeApiKeyRow } from '../db/api-keys-repo.ts';
import { recordAudit } from '../db/audit-repo.ts';
import type { Db } from '../db/database.ts';
import { newId } from '../db/ids.ts';
import { findLicenseById, insertLicense, revokeLicense as revokeLicenseRow } from '../db/licenses-repo.ts';
import { AppError } from '../errors.ts';
import { invalidateCaches } from './caches/lookup-caches.ts';
import {
  generateApiKey,
  generateLicenseKey,
  generatePublishableKey,
  hmacSecret,
  lastFour,
} from './credential-formats.ts';
import { normalizeDomainEntry, requirePlan } from './licensing/license-input.ts';
import { storeLicenseKeys } from './licensing/license-keys.ts';
import type { PlanTable } from './plans.ts';
import { type ApiKeyScope, DEFAULT_API_KEY_SCOPES, formatScopes } from './scopes.ts';
import type { LicensingDeps } from './token-set.ts';

const DAY_MS = 86_400_000;

/**
 * What the admin CLI, the admin API and (later) the portal do to accounts, licenses and API keys.
 * Secrets are returned once, here, and stored only as HMACs.
 */
export async function createAccount(deps: LicensingDeps, input: { name: string; email?: string }) {
  return insertAccount(deps.db, {
    id: newId('acct'),
    name: input.name,
    email: input.email ?? null,
    createdAt: deps.clock.now(),
  });
}

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

/** Unknown account ids are 404 NOT_FOUND naming the id (not a foreign-key failure). */
async function requireAccount(deps: LicensingDeps, accountId: string) {
  const account = await findAccountById(deps.db, accountId);
  if (!account) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
  return account;
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
  const license = await deps.db.transaction(async (txRaw) => {
    const tx = txRaw as unknown as Db;
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

export async function createApiKey(
  deps: LicensingDeps,
  input: {
    accountId: string;
    name: string;
    /** Default `leads:read`: what an AI tool needs, and nothing more. */
    scopes?: readonly ApiKeyScope[];
    expiresAt?: Date;
    apiKey?: string;
    /** The portal user who created it; null from the CLI and the admin API. */
    createdBy?: string;
  },
  /** For the audit trail: `user:<e-mail>` from the portal; the CLI and admin API are the operator. */
  actor = 'operator',
) {
  await requireAccount(deps, input.accountId);
  const scopes = input.scopes?.length ? input.scopes : DEFAULT_API_KEY_SCOPES;
  const apiKey = input.apiKey ?? generateApiKey();
  const row = await insertApiKey(deps.db, {
    id: newId('key'),
    accountId: input.accountId,
    name: input.name,
    keyHmac: hmacSecret(deps.pepper, apiKey),
    keyLast4: lastFour(apiKey),
    scopes: formatScopes(scopes),
    createdBy: input.createdBy ?? null,
    createdAt: deps.clock.now(),
    expiresAt: input.expiresAt ?? null,
  });
  await recordAudit(deps.db, {
    accountId: input.accountId,
    actor,
    action: 'apikey.created',
    subject: row.id,
    data: { name: row.name, scopes: [...scopes] },
    at: row.createdAt,
  });
  return { apiKey, row };
}

export async function listApiKeys(deps: LicensingDeps, accountId: string) {
  await requireAccount(deps, accountId);
  return listApiKeysByAccount(deps.db, accountId);
}

/**
 * Revokes one of the account's API keys; takes effect on the key's next request. An unknown key,
 * another account's key or one already revoked is NOT_FOUND, so the caller learns that nothing
 * changed (and nothing about other accounts' keys).
 */
export async function revokeApiKey(deps: LicensingDeps, accountId: string, id: string, actor = 'operator') {
  const now = deps.clock.now();
  if (!(await revokeApiKeyRow(deps.db, accountId, id, now)))
    throw new AppError('NOT_FOUND', 'No such active API key in this account.');
  await recordAudit(deps.db, { accountId, actor, action: 'apikey.revoked', subject: id, at: now });
  await invalidateCaches(deps);
}
