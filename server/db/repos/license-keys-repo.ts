import { and, eq, gt, isNull, or } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { newId } from '../engine/ids.ts';
import { licenseKeys, licenses } from '../engine/schema.ts';
import type { LicenseRow } from './licenses-repo.ts';

export type LicenseKeyRow = typeof licenseKeys.$inferSelect;
export type LicenseKeyKind = LicenseKeyRow['kind'];

const usableAt = (at: Date) => or(isNull(licenseKeys.expiresAt), gt(licenseKeys.expiresAt, at));

export async function insertLicenseKey(
  db: Db,
  values: {
    licenseId: string;
    kind: LicenseKeyKind;
    keyValue?: string;
    keyHmac?: string;
    keyLast4: string;
    at: Date;
  },
): Promise<LicenseKeyRow> {
  const [row] = await db
    .insert(licenseKeys)
    .values({
      id: newId('lkey'),
      licenseId: values.licenseId,
      kind: values.kind,
      keyValue: values.keyValue ?? null,
      keyHmac: values.keyHmac ?? null,
      keyLast4: values.keyLast4,
      createdAt: values.at,
      expiresAt: null,
    })
    .returning();
  return row!;
}

/** The license a key opens at `at`: current keys, and rolled keys inside their overlap. */
export async function findLicenseByKey(
  db: Db,
  kind: LicenseKeyKind,
  match: { keyValue: string } | { keyHmac: string },
  at: Date,
): Promise<{ license: LicenseRow; key: LicenseKeyRow } | undefined> {
  const column =
    'keyValue' in match ? eq(licenseKeys.keyValue, match.keyValue) : eq(licenseKeys.keyHmac, match.keyHmac);
  const [row] = await db
    .select({ license: licenses, key: licenseKeys })
    .from(licenseKeys)
    .innerJoin(licenses, eq(licenses.id, licenseKeys.licenseId))
    .where(and(eq(licenseKeys.kind, kind), column, usableAt(at)));
  return row;
}

/** The license's current (not rolled) publishable key, or null when it has none. */
export async function findCurrentPublishableKey(db: Db, licenseId: string): Promise<string | null> {
  const [row] = await db
    .select({ keyValue: licenseKeys.keyValue })
    .from(licenseKeys)
    .where(
      and(
        eq(licenseKeys.licenseId, licenseId),
        eq(licenseKeys.kind, 'publishable'),
        isNull(licenseKeys.expiresAt),
      ),
    )
    .limit(1);
  return row?.keyValue ?? null;
}

/** Keys of a license still usable at `at` (current first). */
export async function listUsableKeys(db: Db, licenseId: string, at: Date): Promise<LicenseKeyRow[]> {
  const rows = await db
    .select()
    .from(licenseKeys)
    .where(and(eq(licenseKeys.licenseId, licenseId), usableAt(at)))
    .orderBy(licenseKeys.createdAt);
  return rows.sort((a, b) => Number(a.expiresAt !== null) - Number(b.expiresAt !== null));
}

/** Gives every current key of that kind an end; returns how many were ended. */
export async function endCurrentKeys(
  db: Db,
  licenseId: string,
  kind: LicenseKeyKind,
  endsAt: Date,
): Promise<number> {
  const rows = await db
    .update(licenseKeys)
    .set({ expiresAt: endsAt })
    .where(
      and(eq(licenseKeys.licenseId, licenseId), eq(licenseKeys.kind, kind), isNull(licenseKeys.expiresAt)),
    )
    .returning({ id: licenseKeys.id });
  return rows.length;
}

/** Licenses that have no publishable key yet (made before publishable keys existed). */
export async function licensesWithoutPublishableKey(db: Db): Promise<string[]> {
  const rows = await db
    .select({ id: licenses.id })
    .from(licenses)
    .leftJoin(licenseKeys, and(eq(licenseKeys.licenseId, licenses.id), eq(licenseKeys.kind, 'publishable')))
    .where(isNull(licenseKeys.id));
  return rows.map((r) => r.id);
}
