import { type Db, withTransaction } from '../../db/engine/database.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  endCurrentKeys,
  insertLicenseKey,
  type LicenseKeyKind,
  licensesWithoutPublishableKey,
  listUsableKeys,
} from '../../db/repos/license-keys-repo.ts';
import { findLicenseById, setCurrentSecret } from '../../db/repos/licenses-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import { generateLicenseKey, generatePublishableKey, hmacSecret, lastFour } from '../credentials/formats.ts';
import type { LicensingDeps } from '../deps.ts';

/** Longest overlap a roll may keep the old key for. */
const MAX_KEY_OVERLAP_MS = 30 * 86_400_000;
export const DEFAULT_KEY_OVERLAP_MS = 24 * 3_600_000;

/** Stores a license's two keys; the secret one as an HMAC, the publishable one as is. */
export async function storeLicenseKeys(
  deps: LicensingDeps,
  db: Db,
  licenseId: string,
  keys: { licenseKey: string; publishableKey: string },
): Promise<void> {
  const at = deps.clock.now();
  await insertLicenseKey(db, {
    licenseId,
    kind: 'secret',
    keyHmac: hmacSecret(deps.pepper, keys.licenseKey),
    keyLast4: lastFour(keys.licenseKey),
    at,
  });
  await insertLicenseKey(db, {
    licenseId,
    kind: 'publishable',
    keyValue: keys.publishableKey,
    keyLast4: lastFour(keys.publishableKey),
    at,
  });
}

export interface LicenseKeysView {
  publishableKey: string | null;
  /** Rolled keys still inside their overlap. */
  overlapping: { kind: LicenseKeyKind; last4: string; expiresAt: string }[];
}

export async function licenseKeysView(db: Db, licenseId: string, at: Date): Promise<LicenseKeysView> {
  const keys = await listUsableKeys(db, licenseId, at);
  return {
    publishableKey: keys.find((k) => k.kind === 'publishable' && k.expiresAt === null)?.keyValue ?? null,
    overlapping: keys
      .filter((k) => k.expiresAt !== null)
      .map((k) => ({ kind: k.kind, last4: k.keyLast4, expiresAt: k.expiresAt!.toISOString() })),
  };
}

/**
 * Issues a new key of `kind` and keeps the old one valid for `overlapMs` (0 = ends now), so a firm
 * can swap the key in its page or plugin without downtime. Rolling the secret key also ends the
 * legacy permission of old licenses to open embed sessions with it: after a roll the secret key
 * (old or new) works for site activation only. Written to the audit log. The new key is returned
 * once; a secret key is stored only as its HMAC.
 */
export async function rollLicenseKey(
  deps: LicensingDeps,
  input: {
    licenseId: string;
    kind: LicenseKeyKind;
    overlapMs: number;
    actor?: string;
    /** A firm's own portal: another account's license answers like an unknown one. */
    accountId?: string;
  },
): Promise<{ kind: LicenseKeyKind; key: string; previousKeysEndAt: string }> {
  if (!Number.isInteger(input.overlapMs) || input.overlapMs < 0 || input.overlapMs > MAX_KEY_OVERLAP_MS)
    throw new AppError('INVALID_REQUEST', 'The overlap must be between 0 and 30 days.');
  const license = await findLicenseById(deps.db, input.licenseId);
  if (!license || (input.accountId && license.accountId !== input.accountId))
    throw new AppError('NOT_FOUND', `No license ${input.licenseId}.`);
  const now = deps.clock.now();
  const endsAt = new Date(now.getTime() + input.overlapMs);
  const key = input.kind === 'secret' ? generateLicenseKey() : generatePublishableKey();
  await withTransaction(deps.db, async (tx) => {
    await endCurrentKeys(tx, license.id, input.kind, endsAt);
    if (input.kind === 'secret') {
      const keyHmac = hmacSecret(deps.pepper, key);
      await insertLicenseKey(tx, {
        licenseId: license.id,
        kind: 'secret',
        keyHmac,
        keyLast4: lastFour(key),
        at: now,
      });
      await setCurrentSecret(tx, license.id, { keyHmac, keyLast4: lastFour(key), at: now });
    } else {
      await insertLicenseKey(tx, {
        licenseId: license.id,
        kind: 'publishable',
        keyValue: key,
        keyLast4: lastFour(key),
        at: now,
      });
    }
    await recordAudit(tx, {
      accountId: license.accountId,
      actor: input.actor ?? 'admin',
      action: 'license.key_rolled',
      subject: license.id,
      data: { kind: input.kind, previousKeysEndAt: endsAt.toISOString(), newKeyLast4: lastFour(key) },
      at: now,
    });
  });
  await invalidateCaches(deps);
  return { kind: input.kind, key, previousKeysEndAt: endsAt.toISOString() };
}

/**
 * Start-up: every license made before publishable keys existed gets one (in TypeScript, since the
 * key carries a checksum). Idempotent; concurrent instances are kept apart by the unique index on
 * the key and by re-checking per license.
 */
export async function ensurePublishableKeys(deps: LicensingDeps): Promise<number> {
  let created = 0;
  for (const licenseId of await licensesWithoutPublishableKey(deps.db)) {
    const existing = await listUsableKeys(deps.db, licenseId, deps.clock.now());
    if (existing.some((k) => k.kind === 'publishable')) continue;
    const key = generatePublishableKey();
    await insertLicenseKey(deps.db, {
      licenseId,
      kind: 'publishable',
      keyValue: key,
      keyLast4: lastFour(key),
      at: deps.clock.now(),
    });
    created++;
  }
  // Another instance may have answered a status with "no publishable key" for these licenses.
  if (created > 0) await invalidateCaches(deps);
  return created;
}

/** Parses `24h`, `90m`, `7d` (the CLI's `--overlap`). */
export function parseOverlap(text: string): number | undefined {
  const match = /^(\d{1,4})(m|h|d)$/.exec(text.trim());
  if (!match) return undefined;
  const unit = { m: 60_000, h: 3_600_000, d: 86_400_000 }[match[2] as 'm' | 'h' | 'd'];
  return Number(match[1]) * unit;
}
