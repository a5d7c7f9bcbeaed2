import { insertAccount } from '../db/accounts-repo.ts';
import { insertApiKey, listApiKeysByAccount, revokeApiKey as revokeApiKeyRow } from '../db/api-keys-repo.ts';
import { newId } from '../db/ids.ts';
import { findLicenseById, insertLicense, revokeLicense as revokeLicenseRow } from '../db/licenses-repo.ts';
import { AppError } from '../errors.ts';
import { generateApiKey, generateLicenseKey, hmacSecret, lastFour } from './credential-formats.ts';
import { parseDomainPattern } from './domains.ts';
import { type ApiKeyScope, formatScopes } from './scopes.ts';
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
  /** Only for the demo seed, whose key is derived rather than random. */
  licenseKey?: string;
}

export async function createLicense(deps: LicensingDeps, input: NewLicenseInput) {
  const allowedDomains = input.domains.map((entry) => {
    const pattern = parseDomainPattern(entry);
    if ('error' in pattern)
      throw new AppError('INVALID_REQUEST', pattern.error, {
        details: [{ path: 'domains', message: pattern.error }],
      });
    return pattern.kind === 'exact' ? pattern.host : `*.${pattern.suffix}`;
  });
  if (!Number.isInteger(input.seats) || input.seats < 0)
    throw new AppError('INVALID_REQUEST', 'seats must be a whole number ≥ 0.');
  if (input.trialDays === undefined && input.paidThrough === undefined) {
    throw new AppError('INVALID_REQUEST', 'A license needs --trial-days or --paid-through.');
  }
  const now = deps.clock.now();
  const licenseKey = input.licenseKey ?? generateLicenseKey();
  const license = await insertLicense(deps.db, {
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
  });
  return { license, licenseKey };
}

export async function revokeLicense(deps: LicensingDeps, licenseId: string) {
  const license = await findLicenseById(deps.db, licenseId);
  if (!license) throw new AppError('NOT_FOUND', `No license ${licenseId}.`);
  await revokeLicenseRow(deps.db, licenseId, deps.clock.now());
  return (await findLicenseById(deps.db, licenseId))!;
}

export async function createApiKey(
  deps: LicensingDeps,
  input: {
    accountId: string;
    name: string;
    expiresAt?: Date;
    apiKey?: string;
    /** What the key may do; default `admin` (the CLI's keys before scopes). */
    scopes?: readonly ApiKeyScope[];
    /** The portal user who created it; null from the CLI and the admin API. */
    createdBy?: string;
  },
) {
  const apiKey = input.apiKey ?? generateApiKey();
  const row = await insertApiKey(deps.db, {
    id: newId('key'),
    accountId: input.accountId,
    name: input.name,
    keyHmac: hmacSecret(deps.pepper, apiKey),
    keyLast4: lastFour(apiKey),
    scopes: formatScopes(input.scopes?.length ? input.scopes : ['admin']),
    createdBy: input.createdBy ?? null,
    createdAt: deps.clock.now(),
    expiresAt: input.expiresAt ?? null,
  });
  return { apiKey, row };
}

export const listApiKeys = (deps: LicensingDeps, accountId: string) =>
  listApiKeysByAccount(deps.db, accountId);

/** True when a live key of this account was revoked now. */
export async function revokeApiKey(deps: LicensingDeps, accountId: string, id: string): Promise<boolean> {
  return revokeApiKeyRow(deps.db, accountId, id, deps.clock.now());
}
