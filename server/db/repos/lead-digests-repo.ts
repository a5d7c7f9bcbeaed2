import { and, asc, eq, gte, isNotNull, lt } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { newId } from '../engine/ids.ts';
import { leadDigests, leads } from '../engine/schema.ts';

export type LeadDigestRow = typeof leadDigests.$inferSelect;

/**
 * The digest of this firm, kind and window, created on first use. `created` is true for the one
 * caller that inserted it (concurrent leads meet on the unique key), who then schedules its mail.
 */
export async function openDigest(
  db: Db,
  input: { accountId: string; kind: 'alerts' | 'quarantine'; windowStart: Date; sendAt: Date; now: Date },
): Promise<{ digest: LeadDigestRow; created: boolean }> {
  const [inserted] = await db
    .insert(leadDigests)
    .values({ id: newId('dgst'), ...input, createdAt: input.now })
    .onConflictDoNothing()
    .returning();
  if (inserted) return { digest: inserted, created: true };
  const [existing] = await db
    .select()
    .from(leadDigests)
    .where(
      and(
        eq(leadDigests.accountId, input.accountId),
        eq(leadDigests.kind, input.kind),
        eq(leadDigests.windowStart, input.windowStart),
      ),
    );
  return { digest: existing!, created: false };
}

export async function findDigest(db: Db, accountId: string, id: string): Promise<LeadDigestRow | undefined> {
  const [row] = await db
    .select()
    .from(leadDigests)
    .where(and(eq(leadDigests.accountId, accountId), eq(leadDigests.id, id)));
  return row;
}

/** The leads whose alerts a digest carries, oldest first. */
export function leadsOfDigest(db: Db, accountId: string, digestId: string, limit = 200) {
  return db
    .select()
    .from(leads)
    .where(and(eq(leads.accountId, accountId), eq(leads.digestId, digestId)))
    .orderBy(asc(leads.createdAt), asc(leads.id))
    .limit(limit);
}

/** Leads quarantined in [from, to) and still held, oldest first: the daily quarantine mail. */
export function heldLeadsBetween(db: Db, accountId: string, from: Date, to: Date, limit = 200) {
  return db
    .select()
    .from(leads)
    .where(
      and(
        eq(leads.accountId, accountId),
        isNotNull(leads.quarantinedAt),
        gte(leads.quarantinedAt, from),
        lt(leads.quarantinedAt, to),
      ),
    )
    .orderBy(asc(leads.quarantinedAt), asc(leads.id))
    .limit(limit);
}
