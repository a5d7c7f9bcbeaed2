import type { LeadSort, QuarantineFilter } from '../../db/repos/lead-search-repo.ts';
import { countTestLeads, findLead, type LeadStatus } from '../../db/repos/leads-repo.ts';
import { findResult } from '../../db/repos/results-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { PortalPrincipal } from '../accounts/portal-deps.ts';
import { type LeadView, nextStatuses, toLeadView } from '../leads/intake.ts';
import { listLeadNotes } from '../leads/lead-notes.ts';
import { findLeads, nextCursorOf } from '../leads/lead-query.ts';
import { resultFigures } from '../leads/result-figures.ts';
import type { PortalAppDeps } from './deps.ts';

/** The Leads page's filters, as the URL and the CSV export carry them. */
export interface FirmLeadFilter {
  status?: LeadStatus;
  calculator?: string;
  state?: string;
  /** The visitor's language: `en` or `es`. */
  language?: string;
  /** First day shown (YYYY-MM-DD, UTC), inclusive. */
  from?: string;
  /** Last day shown (YYYY-MM-DD, UTC), inclusive: a person picking "to 31 May" means the whole day. */
  to?: string;
  /** Test-mode leads (development hosts, the portal preview) are left out unless asked for. */
  includeTest?: boolean;
  quarantined?: QuarantineFilter;
  /** The start of a name or e-mail address. */
  q?: string;
  /** A calendar month, YYYY-MM, instead of from/to. */
  month?: string;
  sort?: LeadSort;
}

const dayAfter = (day: string) => {
  const d = new Date(`${day}T00:00:00Z`);
  if (Number.isNaN(d.getTime())) return day; // lead-query refuses it with a clear message
  d.setUTCDate(d.getUTCDate() + 1);
  return d.toISOString().slice(0, 10);
};

/**
 * A page of the firm's leads for the portal, newest first, through the same query module and
 * signed cursors as the REST lead list and the MCP tools (so one rule decides what "test" and
 * "quarantined" mean everywhere).
 */
export async function pageOfFirmLeads(
  deps: PortalAppDeps,
  accountId: string,
  opts: FirmLeadFilter & { limit: number; cursor?: string },
): Promise<{ data: LeadView[]; nextCursor: string | null; total: number; totalCapped: boolean }> {
  const page = await findLeads(
    deps.queries,
    accountId,
    {
      ...(opts.status ? { status: opts.status } : {}),
      ...(opts.calculator ? { calculator: opts.calculator } : {}),
      ...(opts.state ? { state: opts.state } : {}),
      ...(opts.language ? { language: opts.language } : {}),
      ...(opts.from ? { createdFrom: opts.from } : {}),
      ...(opts.to ? { createdTo: dayAfter(opts.to) } : {}),
      includeTest: opts.includeTest ?? false,
      quarantined: opts.quarantined ?? 'exclude',
      ...(opts.q ? { q: opts.q } : {}),
      ...(opts.month ? { month: opts.month } : {}),
      ...(opts.sort ? { sort: opts.sort } : {}),
    },
    { limit: opts.limit, ...(opts.cursor ? { cursor: opts.cursor } : {}) },
  );
  return {
    data: page.rows.map(toLeadView),
    nextCursor: nextCursorOf(page, page.rows.length) ?? null,
    total: page.totalMatching,
    totalCapped: page.totalMatchingCapped,
  };
}

/**
 * How many test-mode leads (development hosts, the portal preview) a list without test data leaves
 * out: the REST list's `hiddenTest`, the same count under the same status filter, so the portal
 * can say "12 test leads from development hosts are hidden" instead of looking empty.
 */
export const hiddenTestLeads = (deps: PortalAppDeps, accountId: string, filter: FirmLeadFilter) =>
  filter.includeTest ? Promise.resolve(0) : countTestLeads(deps.db, accountId, filter.status);

/**
 * One lead of the firm (test and quarantined ones too) with the statuses it may move to and its
 * linked result in words: what the alert e-mail's link opens. Another firm's id is NOT_FOUND.
 */
export async function firmLeadDetail(deps: PortalAppDeps, principal: PortalPrincipal, leadId: string) {
  const row = await findLead(deps.db, principal.accountId, leadId);
  if (!row) throw new AppError('NOT_FOUND', 'No such lead.');
  const result = row.resultId ? await findResult(deps.db, principal.accountId, row.resultId) : undefined;
  const lead = toLeadView({ ...row, result: result ?? null });
  return {
    lead,
    nextStatuses: [...nextStatuses(lead.status)],
    notes: await listLeadNotes(deps, principal.accountId, leadId),
    canWrite: principal.role !== 'viewer',
    result: result
      ? {
          id: result.id,
          calculator: result.calculator,
          state: result.state,
          createdAt: result.createdAt.toISOString(),
          ...resultFigures(result.calculator, result.inputs, result.outputs),
          rules: storedRules(result.ruleSet),
        }
      : null,
  };
}

/**
 * The rules a stored result says it used, read back as stored: a later change to the rules never
 * recomputes or relabels it (the portal shows what the visitor was shown).
 */
function storedRules(ruleSet: Record<string, unknown>) {
  const text = (v: unknown) => (typeof v === 'string' && v.length > 0 ? v : null);
  const id = text(ruleSet.id);
  if (!id) return null;
  return {
    id,
    label: text(ruleSet.label) ?? id,
    taxYear: typeof ruleSet.taxYear === 'number' ? ruleSet.taxYear : null,
    effectiveDate: text(ruleSet.effectiveDate),
  };
}
