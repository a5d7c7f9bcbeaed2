import { and, eq, isNull } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { licenses } from '../engine/schema.ts';

export type LicenseRow = typeof licenses.$inferSelect;

export async function insertLicense(db: Db, values: typeof licenses.$inferInsert): Promise<LicenseRow> {
  const [row] = await db.insert(licenses).values(values).returning();
  return row!;
}

export async function findLicenseByKeyHmac(db: Db, keyHmac: string): Promise<LicenseRow | undefined> {
  const [row] = await db.select().from(licenses).where(eq(licenses.keyHmac, keyHmac));
  return row;
}

export async function findLicenseById(db: Db, id: string): Promise<LicenseRow | undefined> {
  const [row] = await db.select().from(licenses).where(eq(licenses.id, id));
  return row;
}

export async function listLicensesByAccount(db: Db, accountId: string): Promise<LicenseRow[]> {
  return db.select().from(licenses).where(eq(licenses.accountId, accountId)).orderBy(licenses.createdAt);
}

export async function revokeLicense(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(licenses)
    .set({ revokedAt: at, updatedAt: at })
    .where(and(eq(licenses.id, id), isNull(licenses.revokedAt)));
}

export type LicenseChanges = Partial<
  Pick<
    LicenseRow,
    | 'plan'
    | 'seats'
    | 'allowedDomains'
    | 'trialEndsAt'
    | 'paidThrough'
    | 'stripeSubscriptionId'
    | 'renewsAt'
    | 'cancelAt'
  >
>;

export async function updateLicense(
  db: Db,
  id: string,
  changes: LicenseChanges,
  at: Date,
): Promise<LicenseRow> {
  const [row] = await db
    .update(licenses)
    .set({ ...changes, updatedAt: at })
    .where(eq(licenses.id, id))
    .returning();
  return row!;
}

export async function findLicenseBySubscriptionId(
  db: Db,
  subscriptionId: string,
): Promise<LicenseRow | undefined> {
  const [row] = await db.select().from(licenses).where(eq(licenses.stripeSubscriptionId, subscriptionId));
  return row;
}

/** The license row mirrors its current secret key (last four for listings); rolling ends the legacy use. */
export async function setCurrentSecret(
  db: Db,
  id: string,
  values: { keyHmac: string; keyLast4: string; at: Date },
): Promise<void> {
  await db
    .update(licenses)
    .set({
      keyHmac: values.keyHmac,
      keyLast4: values.keyLast4,
      legacySecretEmbed: false,
      updatedAt: values.at,
    })
    .where(eq(licenses.id, id));
}
