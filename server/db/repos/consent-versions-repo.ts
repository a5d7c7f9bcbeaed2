import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { consentVersions } from '../engine/schema.ts';

export type ConsentVersionRow = typeof consentVersions.$inferSelect;

/** The firm's newest consent version in `language` (English unless named), or undefined before the first one. */
export async function findCurrentConsent(
  db: Db,
  accountId: string,
  language = 'en',
): Promise<ConsentVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(consentVersions)
    .where(and(eq(consentVersions.accountId, accountId), eq(consentVersions.language, language)))
    .orderBy(desc(consentVersions.version))
    .limit(1);
  return row;
}

/** The highest version number the firm has used, in any language (versions share one sequence). */
export async function lastConsentVersionNumber(db: Db, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`coalesce(max(${consentVersions.version}), 0)::int` })
    .from(consentVersions)
    .where(eq(consentVersions.accountId, accountId));
  return row?.n ?? 0;
}

export async function findConsentVersion(
  db: Db,
  accountId: string,
  id: string,
): Promise<ConsentVersionRow | undefined> {
  const [row] = await db
    .select()
    .from(consentVersions)
    .where(and(eq(consentVersions.accountId, accountId), eq(consentVersions.id, id)));
  return row;
}

/** Every version of the firm's consent text, newest first. */
export async function listConsentVersions(db: Db, accountId: string): Promise<ConsentVersionRow[]> {
  return db
    .select()
    .from(consentVersions)
    .where(eq(consentVersions.accountId, accountId))
    .orderBy(desc(consentVersions.version));
}

/** Fails on the unique (account, version) index when another writer took the number first. */
export async function insertConsentVersion(
  db: Db,
  values: typeof consentVersions.$inferInsert,
): Promise<ConsentVersionRow> {
  const [row] = await db.insert(consentVersions).values(values).returning();
  return row!;
}

export async function countConsentVersions(db: Db, accountId: string): Promise<number> {
  const [row] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(consentVersions)
    .where(eq(consentVersions.accountId, accountId));
  return row?.n ?? 0;
}
