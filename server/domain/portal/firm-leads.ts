import type { LeadStatus } from '../../db/leads-repo.ts';
import { findLeads, nextCursorOf } from '../leads/lead-query.ts';
import { type LeadView, toLeadView } from '../leads.ts';
import type { PortalDeps } from './portal-deps.ts';

/**
 * A page of the firm's live leads for the portal, newest first, through the same query module and
 * signed cursors as the REST lead list and the MCP tools.
 */
export async function pageOfFirmLeads(
  deps: PortalDeps,
  accountId: string,
  opts: { limit: number; status?: LeadStatus; cursor?: string },
): Promise<{ data: LeadView[]; nextCursor: string | null }> {
  const page = await findLeads(
    deps.queries,
    accountId,
    { ...(opts.status ? { status: opts.status } : {}), includeTest: false },
    { limit: opts.limit, ...(opts.cursor ? { cursor: opts.cursor } : {}) },
  );
  return { data: page.rows.map(toLeadView), nextCursor: nextCursorOf(page, page.rows.length) ?? null };
}
