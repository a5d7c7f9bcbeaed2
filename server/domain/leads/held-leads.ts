import { and, count, desc, eq, isNotNull } from 'drizzle-orm';
import { leads } from '../../db/schema.ts';
import type { PortalDeps, PortalPrincipal } from '../accounts/portal-deps.ts';

/** How many held leads the banner lists by name (the Leads page filter shows them all). */
export const HELD_LISTED = 5;

export interface HeldLeads {
  total: number;
  /** Leads held for each reason (a lead with two reasons counts under both). */
  byReason: Record<string, number>;
  /** The newest held leads; names are the visitor's text, to be shown defanged. */
  latest: { leadId: string; name: string; email: string; reasons: string[]; createdAt: string }[];
}

/**
 * What the portal's banner says about leads held as possible spam: how many, why, and the newest
 * few with a one-step release. Every member may read it (releasing needs admin).
 */
export async function heldLeads(deps: PortalDeps, principal: PortalPrincipal): Promise<HeldLeads> {
  const held = and(eq(leads.accountId, principal.accountId), isNotNull(leads.quarantinedAt));
  const [{ n } = { n: 0 }] = await deps.db.select({ n: count() }).from(leads).where(held);
  if (Number(n) === 0) return { total: 0, byReason: {}, latest: [] };
  const reasons = await deps.db.select({ reasons: leads.quarantineReasons }).from(leads).where(held);
  const byReason: Record<string, number> = {};
  for (const row of reasons) for (const r of row.reasons) byReason[r] = (byReason[r] ?? 0) + 1;
  const latest = await deps.db
    .select()
    .from(leads)
    .where(held)
    .orderBy(desc(leads.quarantinedAt), desc(leads.id))
    .limit(HELD_LISTED);
  return {
    total: Number(n),
    byReason,
    latest: latest.map((l) => ({
      leadId: l.id,
      name: l.name,
      email: l.email,
      reasons: l.quarantineReasons,
      createdAt: l.createdAt.toISOString(),
    })),
  };
}
