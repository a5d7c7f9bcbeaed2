import { parsePhoneNumberFromString } from 'libphonenumber-js';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { actorOf, type PortalPrincipal } from '../accounts/portal-deps.ts';
import type { LeadView } from '../leads/intake.ts';
import { LEAD_FIGURES, leadFigure } from '../leads/lead-result.ts';
import type { PortalAppDeps } from './deps.ts';
import { type FirmLeadFilter, pageOfFirmLeads } from './firm-leads.ts';

const COLUMNS: [string, (l: LeadView) => string | null][] = [
  ['lead_id', (l) => l.leadId],
  ['created_at', (l) => l.createdAt],
  ['name', (l) => l.name],
  ['email', (l) => l.email],
  ['phone', (l) => l.phone],
  ['state', (l) => l.state],
  ['calculator', (l) => l.calculator],
  ['status', (l) => l.status],
  ['test', (l) => String(l.test)],
  ['quarantined', (l) => String(l.quarantined)],
  ['result_id', (l) => l.resultId],
  ['consented_at', (l) => l.consentedAt],
  ['consent_text', (l) => l.consentText],
  // Issue 20: the lead's public shape. The figures as plain numbers (a spreadsheet sums them),
  // one column per main figure whatever the calculator; empty where a calculator has none.
  ['consent_version_id', (l) => l.consent.versionId],
  ['consent_sha256', (l) => l.consent.sha256],
  ['consent_page', (l) => l.consent.page],
  ['consent_assumed', (l) => String(l.consent.assumed)],
  ['result_state', (l) => l.result?.state ?? null],
  ['result_headline', (l) => l.result?.headline ?? null],
  ...LEAD_FIGURES.map((key): [string, (l: LeadView) => string | null] => [
    key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`),
    (l) => figureOf(l, key),
  ]),
  // Issue 39, last so existing columns keep their places.
  ['consent_page_verified', (l) => (l.consent.pageVerified === null ? null : String(l.consent.pageVerified))],
  // Issue 45: the visitor's language and that of the consent text shown.
  ['language', (l) => l.language],
  ['consent_language', (l) => l.consent.language],
  // Issue 40: the phone in E.164 for a CRM's import (formula-guarded like every cell starting
  // with +), the lead's value and priority, and why a lost lead was lost.
  ['phone_e164', (l) => phoneE164(l.phone)],
  ['value', (l) => (l.value ? String(l.value.amount) : null)],
  ['value_label', (l) => l.value?.label ?? null],
  ['priority', (l) => l.priority?.level ?? null],
  ['priority_reasons', (l) => l.priority?.reasons.join(' ') ?? null],
  ['lost_reason', (l) => l.lostReason ?? null],
];

/** A visitor's phone as E.164 (`+12125550100`), read as a US number unless it names a country; null when it is not a valid number. */
function phoneE164(phone: string | null): string | null {
  if (!phone) return null;
  const parsed = parsePhoneNumberFromString(phone, 'US');
  return parsed?.isValid() ? parsed.number : null;
}

function figureOf(lead: LeadView, key: string): string | null {
  const value = lead.result ? leadFigure(lead.result, key) : undefined;
  return value === undefined ? null : String(value);
}

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

const csvRow = (values: (string | null)[]) => `${values.map(csvField).join(',')}\r\n`;

/** The CSV's header line: one column per field of the lead's public shape, then one per main figure. */
export const leadsCsvHeader = () => `${COLUMNS.map(([name]) => name).join(',')}\r\n`;

/** One lead as a CSV line, in the header's order. */
export const leadsCsvLine = (lead: LeadView) => csvRow(COLUMNS.map(([, get]) => get(lead)));

const PAGE = 500;

/**
 * The firm's leads under the Leads page's filters as CSV, streamed a page at a time through the
 * same query as the page (signed cursors, one snapshot time), so memory stays flat however many
 * leads there are and the rows are exactly the filtered set. Starts with a UTF-8 byte order mark so spreadsheet programs
 * read names like "Zoë" correctly. Admins and owners only (the route's role): the file holds
 * people's personal data.
 */
export async function leadsCsvStream(
  deps: PortalAppDeps,
  principal: PortalPrincipal,
  filter: FirmLeadFilter,
): Promise<ReadableStream<Uint8Array>> {
  const encoder = new TextEncoder();
  const read = (cursor?: string) =>
    pageOfFirmLeads(deps, principal.accountId, { ...filter, limit: PAGE, ...(cursor ? { cursor } : {}) });
  // The first page is read before anything is sent, so a refused filter is a clean JSON error.
  let first: Awaited<ReturnType<typeof read>> | undefined = await read();
  // Written before the first byte leaves: an export of personal data is on the trail even when
  // the download is cut off. The count is the filtered set at the query's snapshot time.
  await recordAudit(deps.db, {
    accountId: principal.accountId,
    actor: actorOf(principal),
    action: 'leads.exported',
    data: { format: 'csv', filter: { ...filter }, rows: first.total, rowsCapped: first.totalCapped },
    at: deps.clock.now(),
  });
  let cursor: string | null = null;
  return new ReadableStream({
    start(controller) {
      controller.enqueue(encoder.encode(`\uFEFF${leadsCsvHeader()}`));
    },
    async pull(controller) {
      const page = first ?? (await read(cursor ?? undefined));
      first = undefined;
      const rows = page.data.map(leadsCsvLine).join('');
      if (rows) controller.enqueue(encoder.encode(rows));
      cursor = page.nextCursor;
      if (!cursor) controller.close();
    },
  });
}
