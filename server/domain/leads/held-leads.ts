import { countHeldLeads, heldLeadReasons, latestHeldLeads } from '../../db/repos/held-leads-repo.ts';
import type { PortalDeps, PortalPrincipal } from '../accounts/portal-deps.ts';

/** How many held leads the banner lists by name (the Leads page filter shows them all). */
const HELD_LISTED = 5;

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
  const n = await countHeldLeads(deps.db, principal.accountId);
  if (n === 0) return { total: 0, byReason: {}, latest: [] };
  const reasons = await heldLeadReasons(deps.db, principal.accountId);
  const byReason: Record<string, number> = {};
  for (const row of reasons) for (const r of row) byReason[r] = (byReason[r] ?? 0) + 1;
  const latest = await latestHeldLeads(deps.db, principal.accountId, HELD_LISTED);
  return {
    total: n,
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
