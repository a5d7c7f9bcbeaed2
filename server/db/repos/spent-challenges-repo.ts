import { and, count, eq, gte, lt, sql } from 'drizzle-orm';
import type { Db } from '../engine/database.ts';
import { leads, spentChallenges } from '../engine/schema.ts';

/**
 * Marks a challenge spent for a license; false when it already was. Expired rows are removed on
 * the way (the challenge would be refused for its expiry anyway).
 */
export async function spendChallenge(
  db: Db,
  input: { licenseId: string; challenge: string; expiresAt: Date; now: Date },
): Promise<boolean> {
  await db
    .delete(spentChallenges)
    .where(and(eq(spentChallenges.licenseId, input.licenseId), lt(spentChallenges.expiresAt, input.now)));
  const inserted = await db
    .insert(spentChallenges)
    .values({ licenseId: input.licenseId, challenge: input.challenge, expiresAt: input.expiresAt })
    .onConflictDoNothing()
    .returning();
  return inserted.length === 1;
}

/**
 * Leads that paid a proof of work (held ones too, for other reasons; not test) a license received
 * since `since`: all of them, and those from `sourceNet` (the requester's network; null when
 * unknown: then `network` is null too). One statement for both counts (the lead's hot path).
 * A lead held for `no_proof_of_work` cost its sender nothing, so it never raises anyone's price.
 */
export async function countPaidLeadsSince(
  db: Db,
  licenseId: string,
  since: Date,
  sourceNet: string | null,
): Promise<{ license: number; network: number | null }> {
  const [row] = await db
    .select({
      license: count(),
      network:
        sourceNet === null
          ? sql<null>`null`
          : sql<number>`count(*) filter (where ${leads.sourceNet} = ${sourceNet})`,
    })
    .from(leads)
    .where(
      and(
        eq(leads.licenseId, licenseId),
        eq(leads.test, false),
        gte(leads.createdAt, since),
        sql`not (${leads.quarantineReasons} @> '["no_proof_of_work"]'::jsonb)`,
      ),
    );
  return {
    license: Number(row?.license ?? 0),
    network: sourceNet === null ? null : Number(row?.network ?? 0),
  };
}
