import { calculators, isCalculatorSlug } from '../../../calculators/index.ts';
import type { Db } from '../../db/engine/database.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  countLeads,
  countResults,
  type Keyset,
  type LeadSearch,
  type LeadSort,
  type LeadWithResult,
  leadsByDayMatching,
  type QuarantineFilter,
  type ResultSearch,
  searchLeads,
  searchResults,
} from '../../db/repos/lead-search-repo.ts';
import { countTestLeads, type LeadStatus } from '../../db/repos/leads-repo.ts';
import type { ResultRow } from '../../db/repos/results-repo.ts';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import { type CursorKind, decodeCursor, encodeCursor } from './cursor.ts';

/**
 * The one query module behind the MCP tools and REST `GET /leads`: filters, signed keyset cursors,
 * capped counts. The account always comes from the verified credential, never from an argument.
 */
export interface QueryDeps {
  db: Db;
  clock: Clock;
  cursorKey: Buffer;
}

/** `totalMatching` is exact up to this many rows, then reported as this with a "capped" flag. */
export const COUNT_CAP = 1000;

export interface ResultFilterInput {
  calculator?: string;
  state?: string;
  /** The visitor's language: `en` or `es`. */
  language?: string;
  createdFrom?: string;
  createdTo?: string;
  includeTest?: boolean;
}

export interface LeadFilterInput extends ResultFilterInput {
  status?: LeadStatus;
  /** The start of a name or e-mail address (case-insensitive). */
  q?: string;
  /** A calendar month, `YYYY-MM` (UTC): the same as createdFrom its first day, createdTo the next month's. */
  month?: string;
  /** `received` (newest first, the default), `value` or `priority` (highest first). */
  sort?: LeadSort;
  /** Over-quota leads: see `LeadSearch.quarantined` (unset keeps the REST/MCP behaviour). */
  quarantined?: QuarantineFilter;
}

export interface PageRequest {
  limit: number;
  cursor?: string;
}

export interface Page<Row> {
  rows: Row[];
  totalMatching: number;
  totalMatchingCapped: boolean;
  asOf: Date;
  /** Filters as applied (dates normalised to ISO 8601 UTC). */
  applied: Record<string, unknown>;
  /** More rows follow the last one returned. */
  hasMore: boolean;
  /** A cursor continuing after `row` (a caller that returns fewer rows than it got uses this). */
  cursorAfter(row: Row): string;
}

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})?$/i;

const todayUtc = (clock: Clock) => clock.now().toISOString().slice(0, 10);

function invalid(path: string, message: string): AppError {
  return new AppError('INVALID_REQUEST', message, { details: [{ path, message }] });
}

/** ISO date (midnight UTC) or date-time (UTC unless it names an offset). */
export function parseDateBound(value: string, path: string, clock: Clock): Date {
  const text = value.trim();
  const ok = DATE_ONLY.test(text) || DATE_TIME.test(text);
  const iso = DATE_ONLY.test(text)
    ? `${text}T00:00:00Z`
    : /[zZ]|[+-]\d{2}:\d{2}$/.test(text)
      ? text
      : `${text}Z`;
  const date = new Date(iso);
  if (
    !ok ||
    Number.isNaN(date.getTime()) ||
    (DATE_ONLY.test(text) && iso.slice(0, 10) !== date.toISOString().slice(0, 10))
  )
    throw invalid(
      path,
      `${path} must be an ISO date like ${todayUtc(clock)} or a date-time like ${todayUtc(clock)}T09:30:00Z (UTC). Today is ${todayUtc(clock)} (UTC).`,
    );
  return date;
}

/** `2026-05` → [2026-05-01, 2026-06-01) as ISO dates; INVALID_REQUEST otherwise. */
function monthBounds(month: string, clock: Clock): { from: string; to: string } {
  const m = /^(\d{4})-(0[1-9]|1[0-2])$/.exec(month.trim());
  if (!m)
    throw invalid(
      'month',
      `month must be a calendar month like ${todayUtc(clock).slice(0, 7)} (YYYY-MM, UTC).`,
    );
  const year = Number(m[1]);
  const next =
    Number(m[2]) === 12 ? `${year + 1}-01` : `${m[1]}-${String(Number(m[2]) + 1).padStart(2, '0')}`;
  return { from: `${m[1]}-${m[2]}-01`, to: `${next}-01` };
}

/** Longest search accepted: a name or an address start, not a document. */
const Q_MAX = 100;

function normalise(input: LeadFilterInput, clock: Clock) {
  if (input.month !== undefined) {
    if (input.createdFrom !== undefined || input.createdTo !== undefined)
      throw invalid('month', 'Give either month or createdFrom/createdTo, not both.');
    const { from, to } = monthBounds(input.month, clock);
    input = { ...input, createdFrom: from, createdTo: to };
  }
  const q = input.q?.trim();
  if (q !== undefined && q.length > Q_MAX)
    throw invalid('q', `q is the start of a name or e-mail address, at most ${Q_MAX} characters.`);
  if (input.sort !== undefined && !['received', 'value', 'priority'].includes(input.sort))
    throw invalid('sort', 'sort is one of received, value, priority.');
  if (input.calculator !== undefined && !isCalculatorSlug(input.calculator))
    throw invalid(
      'calculator',
      `Unknown calculator "${input.calculator}". Known: ${calculators.map((c) => c.slug).join(', ')}.`,
    );
  const state = input.state?.trim().toUpperCase();
  if (state !== undefined && !/^[A-Z]{2}$/.test(state))
    throw invalid('state', 'state must be a two-letter US state code such as NY or CA.');
  const createdFrom =
    input.createdFrom !== undefined ? parseDateBound(input.createdFrom, 'createdFrom', clock) : undefined;
  const createdTo =
    input.createdTo !== undefined ? parseDateBound(input.createdTo, 'createdTo', clock) : undefined;
  if (createdFrom && createdTo && createdFrom.getTime() >= createdTo.getTime())
    throw invalid(
      'createdTo',
      `createdTo must be after createdFrom (from is inclusive, to exclusive). Today is ${todayUtc(clock)} (UTC).`,
    );
  if (input.language !== undefined && !['en', 'es'].includes(input.language))
    throw invalid('language', 'language must be en or es.');
  return {
    ...(input.status ? { status: input.status } : {}),
    ...(input.calculator ? { calculator: input.calculator } : {}),
    ...(state ? { state } : {}),
    ...(input.language ? { language: input.language } : {}),
    ...(createdFrom ? { createdFrom } : {}),
    ...(createdTo ? { createdTo } : {}),
    includeTest: input.includeTest ?? false,
    ...(input.quarantined ? { quarantined: input.quarantined } : {}),
    ...(q ? { q: q.toLowerCase() } : {}),
    ...(input.sort && input.sort !== 'received' ? { sort: input.sort } : {}),
  };
}

const appliedView = (f: Record<string, unknown>) =>
  Object.fromEntries(Object.entries(f).map(([k, v]) => [k, v instanceof Date ? v.toISOString() : v]));

async function page<Row extends Keyset, Search>(
  deps: QueryDeps,
  accountId: string,
  kind: CursorKind,
  filters: Record<string, unknown>,
  request: PageRequest,
  run: (search: Search, limit: number, after?: Keyset) => Promise<Row[]>,
  countRows: (search: Search) => Promise<number>,
  sortKeyOf: (row: Row) => number | undefined = () => undefined,
): Promise<Page<Row>> {
  const now = deps.clock.now();
  const keyOf = (row: Row) => {
    const sortKey = sortKeyOf(row);
    return sortKey === undefined ? {} : { sortKey };
  };
  const position = request.cursor
    ? decodeCursor(deps.cursorKey, accountId, kind, filters, request.cursor, now)
    : undefined;
  const asOf = position?.asOf ?? now;
  const search = { accountId, ...filters, asOf } as Search;
  const [rows, total] = await Promise.all([run(search, request.limit + 1, position), countRows(search)]);
  return {
    rows: rows.slice(0, request.limit),
    totalMatching: Math.min(total, COUNT_CAP),
    totalMatchingCapped: total > COUNT_CAP,
    asOf,
    applied: appliedView(filters),
    hasMore: rows.length > request.limit,
    cursorAfter: (row) =>
      encodeCursor(
        deps.cursorKey,
        accountId,
        kind,
        filters,
        { createdAt: row.createdAt, id: row.id, asOf, ...keyOf(row) },
        now,
      ),
  };
}

/** Leads newest first, with their linked result; live data only unless `includeTest`. */
export async function findLeads(
  deps: QueryDeps,
  accountId: string,
  input: LeadFilterInput,
  request: PageRequest,
): Promise<Page<LeadWithResult>> {
  const filters = normalise(input, deps.clock);
  // A sorted search reads its page after its count: when few leads match, they are read through
  // the search indexes and sorted, instead of walking the sort index past every other lead.
  let counted: Promise<number> | undefined;
  const countOnce = (s: LeadSearch) => {
    counted ??= countLeads(deps.db, s, COUNT_CAP + 1);
    return counted;
  };
  return page<LeadWithResult, LeadSearch>(
    deps,
    accountId,
    'leads',
    filters,
    request,
    async (s, limit, after) =>
      searchLeads(deps.db, s, limit, after, Boolean(s.q && s.sort) && (await countOnce(s)) <= COUNT_CAP),
    countOnce,
    (row) =>
      filters.sort === 'value'
        ? (row.valueAmount ?? -1)
        : filters.sort === 'priority'
          ? (row.priorityRank ?? 0)
          : undefined,
  );
}

/**
 * The leads a filter matches, per UTC day and calculator (what the Leads chart draws under the
 * list's filters): the same validation and conditions as `findLeads`, without paging or sort.
 */
export async function countLeadsByDay(
  deps: Pick<QueryDeps, 'db' | 'clock'>,
  accountId: string,
  input: Omit<LeadFilterInput, 'sort'>,
): Promise<{ day: string; calculator: string; n: number }[]> {
  const filters = normalise(input, deps.clock);
  return leadsByDayMatching(deps.db, { accountId, ...filters, asOf: deps.clock.now() });
}

/**
 * How many test-mode leads a live-only listing left out (in `status` when given), so the answer can
 * say where they went.
 */
export async function countHiddenTestLeads(
  deps: Pick<QueryDeps, 'db'>,
  accountId: string,
  status?: LeadStatus,
): Promise<number> {
  return countTestLeads(deps.db, accountId, status);
}

/** Calculation results newest first; live data only unless `includeTest`. */
export async function findResults(
  deps: QueryDeps,
  accountId: string,
  input: ResultFilterInput,
  request: PageRequest,
): Promise<Page<ResultRow>> {
  const {
    status: _none,
    quarantined: _leadsOnly,
    q: _search,
    sort: _sort,
    ...filters
  } = normalise(input, deps.clock);
  return page<ResultRow, ResultSearch>(
    deps,
    accountId,
    'results',
    filters,
    request,
    (s, limit, after) => searchResults(deps.db, s, limit, after),
    (s) => countResults(deps.db, s, COUNT_CAP + 1),
  );
}

/** The next cursor of a page that returned `kept` rows of `page.rows`. */
export function nextCursorOf<Row extends Keyset>(p: Page<Row>, kept: number): string | undefined {
  const last = p.rows[kept - 1];
  if (!last) return undefined;
  return kept < p.rows.length || p.hasMore ? p.cursorAfter(last) : undefined;
}

/**
 * One line in the firm's activity trail for an AI assistant's read (an MCP tool call): which tool,
 * the filters it used (never a cursor's contents), how many rows and how it ended.
 */
export async function recordToolCall(
  deps: QueryDeps,
  call: { accountId: string; actor: string; tool: string; data: Record<string, unknown> },
): Promise<void> {
  await recordAudit(deps.db, {
    accountId: call.accountId,
    actor: call.actor,
    action: 'mcp.tool_call',
    subject: call.tool,
    data: call.data,
    at: deps.clock.now(),
  });
}
