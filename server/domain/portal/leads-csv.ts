import type { LeadStatus } from '../../db/leads-repo.ts';
import type { LeadView } from '../leads.ts';
import { pageOfFirmLeads } from './firm-leads.ts';
import type { PortalDeps, PortalPrincipal } from './portal-deps.ts';

const COLUMNS: [string, (l: LeadView) => string | null][] = [
  ['lead_id', (l) => l.leadId],
  ['created_at', (l) => l.createdAt],
  ['name', (l) => l.name],
  ['email', (l) => l.email],
  ['phone', (l) => l.phone],
  ['state', (l) => l.state],
  ['calculator', (l) => l.calculator],
  ['status', (l) => l.status],
  ['result_id', (l) => l.resultId],
  ['consented_at', (l) => l.consentedAt],
  ['consent_text', (l) => l.consentText],
];

/**
 * One CSV field (RFC 4180): always quoted, quotes doubled. A value a spreadsheet would run as a
 * formula (starting with = + - @, a tab or a carriage return) gets a leading apostrophe (OWASP
 * "CSV injection"), so a visitor's name like `=HYPERLINK(…)` stays text.
 */
export function csvField(value: string | null): string {
  let text = value ?? '';
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return `"${text.replace(/"/g, '""')}"`;
}

export const csvRow = (values: (string | null)[]) => `${values.map(csvField).join(',')}\r\n`;

const PAGE = 500;

/**
 * The firm's leads (optionally one status) as CSV, streamed a page at a time so memory stays
 * flat however many leads there are. Starts with a UTF-8 byte order mark so spreadsheet programs
 * read names like "Zoë" correctly.
 */
export function leadsCsvStream(
  deps: PortalDeps,
  principal: PortalPrincipal,
  filter: { status?: LeadStatus },
): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  let cursor: string | undefined;
  let started = false;
  return new ReadableStream({
    async pull(controller) {
      if (!started) {
        started = true;
        controller.enqueue(encoder.encode(`\uFEFF${COLUMNS.map(([name]) => name).join(',')}\r\n`));
        return;
      }
      const page = await pageOfFirmLeads(deps, principal.accountId, {
        limit: PAGE,
        ...(filter.status ? { status: filter.status } : {}),
        ...(cursor ? { cursor } : {}),
      });
      const rows = page.data.map((lead) => csvRow(COLUMNS.map(([, get]) => get(lead)))).join('');
      if (rows) controller.enqueue(encoder.encode(rows));
      if (!page.nextCursor) controller.close();
      else cursor = page.nextCursor;
    },
  });
}
