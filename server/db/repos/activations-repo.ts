import { and, count, eq, gt, isNull, lte, min } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { newId } from '../engine/ids.ts';
import { activations, licenses } from '../engine/schema.ts';

export type ActivationRow = typeof activations.$inferSelect;

/** Locks the license row for the rest of the transaction, so seat counting cannot race. */
export async function lockLicense(db: Db, licenseId: string): Promise<void> {
  await db.select({ id: licenses.id }).from(licenses).where(eq(licenses.id, licenseId)).for('update');
}

export async function findLiveActivation(
  db: Db,
  licenseId: string,
  domain: string,
): Promise<ActivationRow | undefined> {
  const [row] = await db
    .select()
    .from(activations)
    .where(
      and(
        eq(activations.licenseId, licenseId),
        eq(activations.domain, domain),
        isNull(activations.releasedAt),
      ),
    );
  return row;
}

export async function findActivation(db: Db, id: string): Promise<ActivationRow | undefined> {
  const [row] = await db.select().from(activations).where(eq(activations.id, id));
  return row;
}

const holdsSeat = (licenseId: string, activeSince: Date) =>
  and(
    eq(activations.licenseId, licenseId),
    eq(activations.env, 'prod'),
    isNull(activations.releasedAt),
    gt(activations.lastSeenAt, activeSince),
  );

/**
 * Production activations holding a seat: live and not idle. `activeSince` is the idle cut-off: an
 * activation last seen (activated or refreshed) before it holds no seat.
 */
export async function countLiveProdActivations(
  db: Db,
  licenseId: string,
  activeSince: Date,
): Promise<number> {
  const [row] = await db.select({ n: count() }).from(activations).where(holdsSeat(licenseId, activeSince));
  return Number(row?.n ?? 0);
}

/**
 * The seats in use (as `countLiveProdActivations`) and the earliest last-seen time among them: the
 * count stays right until that activation goes idle, unless a write changes activations.
 */
export async function seatUse(
  db: Db,
  licenseId: string,
  activeSince: Date,
): Promise<{ used: number; earliestLastSeen: Date | null }> {
  const [row] = await db
    .select({ n: count(), earliest: min(activations.lastSeenAt) })
    .from(activations)
    .where(holdsSeat(licenseId, activeSince));
  return { used: Number(row?.n ?? 0), earliestLastSeen: row?.earliest ?? null };
}

/** Live activations last seen at or before `idleSince`. */
export async function listIdleActivations(
  db: Db,
  licenseId: string,
  idleSince: Date,
): Promise<ActivationRow[]> {
  return db
    .select()
    .from(activations)
    .where(
      and(
        eq(activations.licenseId, licenseId),
        isNull(activations.releasedAt),
        lte(activations.lastSeenAt, idleSince),
      ),
    );
}

export async function insertActivation(
  db: Db,
  values: { licenseId: string; domain: string; env: 'prod' | 'dev'; at: Date },
): Promise<ActivationRow> {
  const [row] = await db
    .insert(activations)
    .values({
      id: newId('act'),
      licenseId: values.licenseId,
      domain: values.domain,
      env: values.env,
      firstSeenAt: values.at,
      lastSeenAt: values.at,
    })
    .returning();
  return row!;
}

export async function touchActivation(db: Db, id: string, at: Date): Promise<void> {
  await db.update(activations).set({ lastSeenAt: at }).where(eq(activations.id, id));
}

export async function releaseActivation(db: Db, id: string, at: Date): Promise<void> {
  await db
    .update(activations)
    .set({ releasedAt: at })
    .where(and(eq(activations.id, id), isNull(activations.releasedAt)));
}

export async function listActivationsByLicense(db: Db, licenseId: string): Promise<ActivationRow[]> {
  return db
    .select()
    .from(activations)
    .where(eq(activations.licenseId, licenseId))
    .orderBy(activations.firstSeenAt);
}

export async function listLiveActivations(db: Db, licenseId: string): Promise<ActivationRow[]> {
  return db
    .select()
    .from(activations)
    .where(and(eq(activations.licenseId, licenseId), isNull(activations.releasedAt)))
    .orderBy(activations.firstSeenAt);
}
