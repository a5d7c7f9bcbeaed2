import { McpServer } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { toMcpLead } from '../contracts/lead.ts';
import type { LeadWithResult } from '../db/repos/lead-search-repo.ts';
import type { ResultRow } from '../db/repos/results-repo.ts';
import type { FunnelCounter } from '../domain/funnel/counter.ts';
import { funnelPeriod, funnelReport } from '../domain/funnel/report.ts';
import { directoryStats } from '../domain/leads/directory-stats.ts';
import { toLeadView } from '../domain/leads/intake.ts';
import {
  findLeads,
  findResults,
  nextCursorOf,
  parseDateBound,
  type QueryDeps,
  recordToolCall,
} from '../domain/leads/lead-query.ts';
import type { Clock } from '../lib/clock.ts';
import { isAppError } from '../lib/errors.ts';
import {
  getLeadsInput,
  getLeadsOutput,
  getResultsInput,
  getResultsOutput,
  getStatsInput,
  getStatsOutput,
} from './tool-schemas.ts';

export interface McpDeps extends QueryDeps {
  logger: Logger;
  /** This instance's funnel counter, flushed before a read so the answer includes it. */
  funnel?: FunnelCounter;
}

/**
 * Who calls: always from the verified credential, never from an argument. `actor` is how the
 * activity trail names it: `apikey:<id>` for a personal API key, `mcp_grant:<id>` for an OAuth grant.
 */
export interface McpCaller {
  accountId: string;
  actor: string;
}

/** A page of text holds about this much; `nextCursor` continues after the last row that fit. */
export const PAGE_TEXT_BUDGET = 40_000;

const READ_ONLY = { readOnlyHint: true, destructiveHint: false, idempotentHint: true, openWorldHint: false };

const metadataOf = (r: Pick<ResultRow, 'inputs' | 'outputs'>) => ({
  ...(r.inputs as Record<string, unknown>),
  ...(r.outputs as Record<string, unknown>),
});

/** The lead as MCP shows it: the one lead shape, projected (server/contracts/lead.ts). */
const leadView = (row: LeadWithResult) => toMcpLead(toLeadView(row));

const resultView = (row: ResultRow) => ({
  id: row.id,
  calculatorSlug: row.calculator,
  state: row.state,
  metadata: metadataOf(row),
  createdAt: row.createdAt.toISOString(),
});

/** How many leading items fit the text budget (at least one, so a page always moves on). */
function fitting(items: unknown[], reserve: number): number {
  let used = reserve;
  for (let i = 0; i < items.length; i++) {
    used += JSON.stringify(items[i]).length + 1;
    if (used > PAGE_TEXT_BUDGET) return Math.max(1, i);
  }
  return items.length;
}

const RESERVE = 1_500;

function structured<T extends Record<string, unknown>>(value: T) {
  return { content: [{ type: 'text' as const, text: JSON.stringify(value) }], structuredContent: value };
}

/**
 * The arguments as the audit row keeps them. The SDK has checked every argument against its schema
 * before the tool runs except the date bounds, which the query checks (to answer with today's
 * date): one that does not parse is stored as "invalid", never as the free text it was.
 */
function auditableArgs(args: Record<string, unknown>, clock: Clock): Record<string, unknown> {
  const out = { ...args };
  for (const key of ['createdFrom', 'createdTo'] as const) {
    const value = out[key];
    if (value === undefined) continue;
    try {
      out[key] = typeof value === 'string' ? parseDateBound(value, key, clock) && value.trim() : 'invalid';
    } catch {
      out[key] = 'invalid';
    }
  }
  return out;
}

/**
 * Runs one tool call: the body, an `isError` result for a refusal the model can fix (bad date,
 * foreign cursor), a detail-free one for a bug, and an audit row either way (key id, tool,
 * arguments — filters only, the cursor reduced to "present" — rows returned, duration).
 */
async function audited<T extends Record<string, unknown>>(
  deps: McpDeps,
  caller: McpCaller,
  tool: string,
  args: Record<string, unknown>,
  body: () => Promise<{ value: T; rows: number }>,
) {
  const started = performance.now();
  let rows = 0;
  let outcome: 'ok' | 'refused' | 'error' = 'ok';
  try {
    const { value, rows: n } = await body();
    rows = n;
    return structured(value);
  } catch (error) {
    outcome = isAppError(error) ? 'refused' : 'error';
    if (!isAppError(error)) deps.logger.error({ err: error, tool }, 'mcp tool failed');
    const text = isAppError(error) ? error.message : 'An unexpected error occurred. Try again later.';
    return { content: [{ type: 'text' as const, text }], isError: true };
  } finally {
    const { cursor, ...filters } = auditableArgs(args, deps.clock);
    await recordToolCall(deps, {
      accountId: caller.accountId,
      actor: caller.actor,
      tool,
      data: {
        tool,
        args: { ...filters, ...(cursor !== undefined ? { cursor: true } : {}) },
        rows,
        outcome,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      },
    }).catch((err: unknown) => deps.logger.error({ err }, 'mcp audit write failed'));
  }
}

/** A fresh MCP server for one request of one caller (the SDK's per-request factory model). */
export function createSvcMcpServer(deps: McpDeps, caller: McpCaller): McpServer {
  const server = new McpServer(
    { name: 'svc', title: 'svc leads', version: '1.0.0' },
    {
      instructions:
        'Read-only access to one firm’s leads and calculator results. Lists are newest first; pass nextCursor with the same filters to continue. Dates are UTC.',
    },
  );

  server.registerTool(
    'get_leads',
    {
      title: 'Get leads',
      description:
        'The firm’s leads (people who asked to be contacted after using a calculator), newest first, each with its linked calculation. Filter by status, calculator, state and creation date; page with nextCursor.',
      inputSchema: getLeadsInput,
      outputSchema: getLeadsOutput,
      annotations: READ_ONLY,
    },
    (args) =>
      audited(deps, caller, 'get_leads', args, async () => {
        const { calculatorSlug, limit, cursor, ...rest } = args;
        const page = await findLeads(
          deps,
          caller.accountId,
          { ...rest, ...(calculatorSlug ? { calculator: calculatorSlug } : {}) },
          { limit, ...(cursor ? { cursor } : {}) },
        );
        const leads = page.rows.map(leadView);
        const kept = fitting(leads, RESERVE);
        const nextCursor = nextCursorOf(page, kept);
        const { calculator, ...applied } = page.applied;
        return {
          rows: kept,
          value: {
            leads: leads.slice(0, kept),
            totalMatching: page.totalMatching,
            totalMatchingCapped: page.totalMatchingCapped,
            ...(nextCursor ? { nextCursor } : {}),
            appliedFilters: { ...applied, ...(calculator ? { calculatorSlug: calculator } : {}), limit },
            asOf: page.asOf.toISOString(),
          },
        };
      }),
  );

  server.registerTool(
    'get_calculator_results',
    {
      title: 'Get calculator results',
      description:
        'Calculations visitors ran on the firm’s widgets, newest first; metadata holds the inputs and outputs (an estate-tax result has estateValue, federalTax, stateTax). Filter by calculator, state and creation date; page with nextCursor.',
      inputSchema: getResultsInput,
      outputSchema: getResultsOutput,
      annotations: READ_ONLY,
    },
    (args) =>
      audited(deps, caller, 'get_calculator_results', args, async () => {
        const { calculatorSlug, limit, cursor, ...rest } = args;
        const page = await findResults(
          deps,
          caller.accountId,
          { ...rest, ...(calculatorSlug ? { calculator: calculatorSlug } : {}) },
          { limit, ...(cursor ? { cursor } : {}) },
        );
        const results = page.rows.map(resultView);
        const kept = fitting(results, RESERVE);
        const nextCursor = nextCursorOf(page, kept);
        return {
          rows: kept,
          value: {
            results: results.slice(0, kept),
            totalMatching: page.totalMatching,
            totalMatchingCapped: page.totalMatchingCapped,
            ...(nextCursor ? { nextCursor } : {}),
            asOf: page.asOf.toISOString(),
          },
        };
      }),
  );

  server.registerTool(
    'get_directory_stats',
    {
      title: 'Get lead statistics',
      description:
        'Lead counts for the firm: all time, in the last windowDays days, by status and by calculator (top 10). Test-mode and quarantined leads are not counted. `funnel` covers the window’s whole UTC days: views → calculations → leads → contacted / converted / lost, in total, by calculator and by page, with rates (test traffic apart).',
      inputSchema: getStatsInput,
      outputSchema: getStatsOutput,
      annotations: READ_ONLY,
    },
    (args) =>
      audited(deps, caller, 'get_directory_stats', args, async () => {
        const stats = await directoryStats(deps, caller.accountId, args.windowDays);
        // The funnel over the window's whole UTC days (today included).
        const funnel = await funnelReport(
          deps,
          caller.accountId,
          funnelPeriod(deps.clock.now(), {
            createdFrom: new Date(
              Date.parse(stats.windowEnd) - (args.windowDays - 1) * 86_400_000,
            ).toISOString(),
          }),
        );
        return { rows: stats.topCalculators.length, value: { ...stats, funnel } };
      }),
  );

  return server;
}
