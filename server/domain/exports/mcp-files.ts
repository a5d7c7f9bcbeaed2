import { newId } from '../../db/engine/ids.ts';
import { findAccountById } from '../../db/repos/accounts-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import type { Keyset } from '../../db/repos/lead-search-repo.ts';
import { findMcpExport, insertMcpExport } from '../../db/repos/mcp-exports-repo.ts';
import { findResult, type ResultRow } from '../../db/repos/results-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { renderReport } from '../../pdf/render-report.ts';
import { toLeadView } from '../leads/intake.ts';
import {
  findLeads,
  findResults,
  type LeadFilterInput,
  type Page,
  type QueryDeps,
} from '../leads/lead-query.ts';
import { csvField, leadsCsvHeader, leadsCsvLine } from '../portal/leads-csv.ts';
import { reportInputOf } from '../results/reports.ts';

/**
 * Files an AI assistant asks for over MCP (`export_results`, `generate_report`): made once, kept
 * 15 minutes, readable through `resources/read` (`svc://exports/<id>`) by the very credential that
 * made them (the same API key or the same OAuth grant), each read audited as an export of
 * personal data. A CSV here is text read by a program, so it has no byte order mark (the portal's
 * download has one, for spreadsheets). Limits: 10,000 rows and 5 MB per file; a larger set is refused with advice to
 * narrow it (a month at a time), never cut short silently.
 */
export const EXPORT_TTL_MS = 15 * 60_000;
const EXPORT_MAX_ROWS = 10_000;
const EXPORT_MAX_BYTES = 5 * 1024 * 1024;
const PAGE = 1_000;

export interface McpFile {
  uri: string;
  mimeType: string;
  rows?: number;
  bytes: number;
  expiresAt: string;
}

interface Owner {
  accountId: string;
  /** `apikey:<id>` or `mcp_grant:<id>`: only this credential may read the file. */
  actor: string;
}

const exportUri = (id: string) => `svc://exports/${id}`;

const tooMany = (what: string, max: number) =>
  new AppError(
    'INVALID_REQUEST',
    `More than ${max.toLocaleString('en-US')} ${what} match; an export holds at most ${max.toLocaleString('en-US')}. Narrow it, e.g. with month=YYYY-MM or a calculator.`,
  );

/** The limits of one file (tests pass smaller ones to check the refusals without 10,000 rows). */
export interface ExportLimits {
  rows: number;
  bytes: number;
}
const LIMITS: ExportLimits = { rows: EXPORT_MAX_ROWS, bytes: EXPORT_MAX_BYTES };

/** Every row under the filters (at one snapshot), refusing past the row limit. */
async function allRows<Row>(
  read: (cursor?: string) => Promise<{ rows: Row[]; next?: string | undefined }>,
  what: string,
  maxRows: number,
): Promise<Row[]> {
  const out: Row[] = [];
  let cursor: string | undefined;
  do {
    const page = await read(cursor);
    out.push(...page.rows);
    if (out.length > maxRows) throw tooMany(what, maxRows);
    cursor = page.next;
  } while (cursor);
  return out;
}

const paged = <Row extends Keyset>(p: Page<Row>): { rows: Row[]; next?: string | undefined } => ({
  rows: p.rows,
  next: p.hasMore && p.rows.length ? p.cursorAfter(p.rows.at(-1)!) : undefined,
});

function resultsCsv(rows: ResultRow[]): string {
  const metadata = rows.map(
    (r) => ({ ...(r.inputs as object), ...(r.outputs as object) }) as Record<string, unknown>,
  );
  const keys = [...new Set(metadata.flatMap((m) => Object.keys(m)))];
  const head = ['result_id', 'created_at', 'calculator', 'state', ...keys];
  const line = (values: (string | null)[]) => `${values.map(csvField).join(',')}\r\n`;
  const cell = (v: unknown) =>
    v === undefined || v === null ? null : typeof v === 'object' ? JSON.stringify(v) : String(v);
  return `${line(head)}${rows
    .map((r, i) =>
      line([
        r.id,
        r.createdAt.toISOString(),
        r.calculator,
        r.state,
        ...keys.map((k) => cell(metadata[i]![k])),
      ]),
    )
    .join('')}`;
}

const resultJson = (r: ResultRow) => ({
  id: r.id,
  calculatorSlug: r.calculator,
  state: r.state,
  metadata: { ...(r.inputs as object), ...(r.outputs as object) },
  createdAt: r.createdAt.toISOString(),
});

async function store(
  deps: QueryDeps,
  owner: Owner,
  file: {
    kind: string;
    mimeType: string;
    content: string;
    encoding: 'utf8' | 'base64';
    bytes: number;
    rows?: number;
  },
  maxBytes = EXPORT_MAX_BYTES,
): Promise<McpFile> {
  if (file.bytes > maxBytes)
    throw new AppError(
      'INVALID_REQUEST',
      `The file would be ${(file.bytes / 1_048_576).toFixed(2)} MB; an export holds at most ${(maxBytes / 1_048_576).toFixed(2)} MB. Narrow it, e.g. with month=YYYY-MM, or ask for CSV.`,
    );
  const now = deps.clock.now();
  const id = newId('exp');
  const expiresAt = new Date(now.getTime() + EXPORT_TTL_MS);
  await insertMcpExport(deps.db, {
    id,
    accountId: owner.accountId,
    actor: owner.actor,
    kind: file.kind,
    mimeType: file.mimeType,
    content: file.content,
    encoding: file.encoding,
    rows: file.rows ?? null,
    bytes: file.bytes,
    expiresAt,
    createdAt: now,
  });
  return {
    uri: exportUri(id),
    mimeType: file.mimeType,
    ...(file.rows !== undefined ? { rows: file.rows } : {}),
    bytes: file.bytes,
    expiresAt: expiresAt.toISOString(),
  };
}

/**
 * The firm's leads (the portal CSV's columns, or the public lead objects as JSON) or results (one
 * column per figure, or `{ id, calculatorSlug, state, metadata, createdAt }`) under the filters.
 */
export async function exportRows(
  deps: QueryDeps,
  owner: Owner,
  request: { of: 'leads' | 'results'; format: 'csv' | 'json'; filters: LeadFilterInput },
  limits: ExportLimits = LIMITS,
): Promise<McpFile> {
  const { of, format, filters } = request;
  let content: string;
  let rows: number;
  if (of === 'leads') {
    const leads = (
      await allRows(
        async (cursor) =>
          paged(
            await findLeads(deps, owner.accountId, filters, { limit: PAGE, ...(cursor ? { cursor } : {}) }),
          ),
        'leads',
        limits.rows,
      )
    ).map(toLeadView);
    rows = leads.length;
    content =
      format === 'csv' ? `${leadsCsvHeader()}${leads.map(leadsCsvLine).join('')}` : JSON.stringify({ leads });
  } else {
    const { status: _leadsOnly, ...resultFilters } = filters;
    const results = await allRows(
      async (cursor) =>
        paged(
          await findResults(deps, owner.accountId, resultFilters, {
            limit: PAGE,
            ...(cursor ? { cursor } : {}),
          }),
        ),
      'results',
      limits.rows,
    );
    rows = results.length;
    content = format === 'csv' ? resultsCsv(results) : JSON.stringify({ results: results.map(resultJson) });
  }
  return store(
    deps,
    owner,
    {
      kind: `${of}.${format}`,
      mimeType: format === 'csv' ? 'text/csv; charset=utf-8' : 'application/json',
      content,
      encoding: 'utf8',
      bytes: Buffer.byteLength(content),
      rows,
    },
    limits.bytes,
  );
}

/** The PDF report of one of the firm's results (what the widget's "Download PDF" gives the visitor). */
export async function reportFile(deps: QueryDeps, owner: Owner, resultId: string): Promise<McpFile> {
  const row = await findResult(deps.db, owner.accountId, resultId);
  if (!row) throw new AppError('NOT_FOUND', 'No result with this id in this firm.');
  const account = await findAccountById(deps.db, owner.accountId);
  const pdf = await renderReport(reportInputOf(row, account, deps.clock.now()));
  return store(deps, owner, {
    kind: 'report.pdf',
    mimeType: 'application/pdf',
    content: pdf.toString('base64'),
    encoding: 'base64',
    bytes: pdf.length,
  });
}

/**
 * `resources/read` of `svc://exports/<id>`: the file to the credential that made it, while it
 * lasts; anything else (another key or grant, another firm, expired, unknown) is the same "not
 * found", which tells nothing about other credentials' files. Each read is audited.
 */
export async function readFile(
  deps: QueryDeps,
  reader: Owner,
  id: string,
): Promise<{ mimeType: string; text?: string; blob?: string } | undefined> {
  const row = await findMcpExport(deps.db, reader.accountId, id);
  const now = deps.clock.now();
  if (!row || row.actor !== reader.actor || row.expiresAt.getTime() <= now.getTime()) return undefined;
  await recordAudit(deps.db, {
    accountId: reader.accountId,
    actor: reader.actor,
    action: 'mcp.export_read',
    subject: row.id,
    data: { kind: row.kind, ...(row.rows !== null ? { rows: row.rows } : {}), bytes: row.bytes },
    at: now,
  });
  return row.encoding === 'base64'
    ? { mimeType: row.mimeType, blob: row.content }
    : { mimeType: row.mimeType, text: row.content };
}
