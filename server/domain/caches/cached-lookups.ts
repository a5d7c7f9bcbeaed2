import type { Db } from '../../db/engine/database.ts';
import { type AccountRow, findAccountById } from '../../db/repos/accounts-repo.ts';
import { type ActivationRow, findActivation, seatUse } from '../../db/repos/activations-repo.ts';
import { type ApiKeyRow, findApiKeyByHmac } from '../../db/repos/api-keys-repo.ts';
import {
  type ConsentVersionRow,
  findConsentVersion,
  findCurrentConsent,
} from '../../db/repos/consent-versions-repo.ts';
import { findCurrentPublishableKey, findLicenseByKey } from '../../db/repos/license-keys-repo.ts';
import { findLicenseById, type LicenseRow } from '../../db/repos/licenses-repo.ts';
import { isFamilyRevoked } from '../../db/repos/refresh-tokens-repo.ts';
import type { CacheName, LookupCaches } from './lookup-caches.ts';

/**
 * The lookups every authenticated request makes, through the caches when the deployment has them.
 * Each is invalidated by `invalidateCaches` after any write that changes what it returns; what
 * depends on the clock (license status, key overlap, expiry, idle seats) is computed from the
 * cached row at each use or bounds the entry's life.
 */
export interface CacheDeps {
  db: Db;
  caches?: LookupCaches | undefined;
}

export function cachedLookup<T>(
  deps: CacheDeps,
  cache: CacheName,
  key: string,
  load: () => Promise<T | undefined>,
  until?: (value: T) => number,
): Promise<T | undefined> {
  return deps.caches ? deps.caches.lookup(cache, key, load, until) : load();
}

export const cachedLicenseById = (deps: CacheDeps, id: string): Promise<LicenseRow | undefined> =>
  cachedLookup(deps, 'license', id, () => findLicenseById(deps.db, id));

export const cachedActivation = (deps: CacheDeps, id: string): Promise<ActivationRow | undefined> =>
  cachedLookup(deps, 'activation', id, () => findActivation(deps.db, id));

export const cachedFamilyRevoked = async (deps: CacheDeps, familyId: string): Promise<boolean> =>
  (await cachedLookup(deps, 'family', familyId, () => isFamilyRevoked(deps.db, familyId))) ?? false;

export const cachedAccount = (deps: CacheDeps, id: string): Promise<AccountRow | undefined> =>
  cachedLookup(deps, 'account', id, () => findAccountById(deps.db, id));

/**
 * The license's current publishable key (null for a license made before publishable keys that
 * start-up has not yet given one). A roll or a retirement invalidates.
 */
export const cachedPublishableKey = async (deps: CacheDeps, licenseId: string): Promise<string | null> =>
  (await cachedLookup(deps, 'publishable-key', licenseId, () =>
    findCurrentPublishableKey(deps.db, licenseId),
  )) ?? null;

/**
 * The firm's consent version in force in `language`; publishing a new one invalidates. "None" is
 * cached too (as null): a firm without a Spanish text is asked about it by every embed session.
 */
export const cachedCurrentConsent = async (
  deps: CacheDeps,
  accountId: string,
  language = 'en',
): Promise<ConsentVersionRow | undefined> =>
  (await cachedLookup<ConsentVersionRow | null>(
    deps,
    'consent',
    `current:${accountId}${language === 'en' ? '' : `:${language}`}`,
    async () => (await findCurrentConsent(deps.db, accountId, language)) ?? null,
  )) ?? undefined;

/** One consent version of the firm: versions never change once written, so only closure invalidates. */
export const cachedConsentVersion = (
  deps: CacheDeps,
  accountId: string,
  id: string,
): Promise<ConsentVersionRow | undefined> =>
  cachedLookup(deps, 'consent', `${accountId}:${id}`, () => findConsentVersion(deps.db, accountId, id));

/**
 * An API key row by its HMAC. The row is shared by later hits, so `touchApiKey`'s new "last used"
 * is written into it too (see `authenticateApiKey`).
 */
export const cachedApiKey = (deps: CacheDeps, keyHmac: string): Promise<ApiKeyRow | undefined> =>
  cachedLookup(deps, 'api-key', keyHmac, () => findApiKeyByHmac(deps.db, keyHmac));

/** The license a publishable key opens at `at`; the entry ends with a rolled key's overlap. */
export const cachedLicenseByPublishableKey = (deps: CacheDeps, keyValue: string, at: Date) =>
  cachedLookup(
    deps,
    'license-key',
    keyValue,
    () => findLicenseByKey(deps.db, 'publishable', { keyValue }, at),
    (found) => found.key.expiresAt?.getTime() ?? Number.POSITIVE_INFINITY,
  );

/** `cachedLicenseByPublishableKey`'s entry when the caches hold a live one; never loads. */
export const peekLicenseByPublishableKey = (deps: CacheDeps, keyValue: string) =>
  deps.caches?.peek<Awaited<ReturnType<typeof findLicenseByKey>>>('license-key', keyValue);

/**
 * Seats in use at `now` with the idle cut-off `activeSince`. A refresh only ever touches an
 * activation that is not idle (its refresh token would have expired), so the count changes only by
 * writes that invalidate, or when the earliest counted activation goes idle: the entry ends then.
 */
export async function cachedSeatsUsed(
  deps: CacheDeps,
  licenseId: string,
  activeSince: Date,
  idleAfterMs: number,
): Promise<number> {
  const use = await cachedLookup(
    deps,
    'seats',
    licenseId,
    () => seatUse(deps.db, licenseId, activeSince),
    (u) => (u.earliestLastSeen ? u.earliestLastSeen.getTime() + idleAfterMs : Number.POSITIVE_INFINITY),
  );
  return use?.used ?? 0;
}
