import { formatUsd } from '../../../calculators/money.ts';
import { calculatorName } from '../../../calculators/names.ts';
import type { LeadView } from '../../contracts/lead.ts';
import { mainFigures } from '../leads/lead-result.ts';
import { northAmericanE164 } from './phone.ts';
import { type SplitName, splitName } from './split-name.ts';

/**
 * Everything a connector sends about one lead, worked out once from the lead's contract
 * (server/contracts/lead.ts): the connectors only place these values where their vendor wants
 * them. Fields the contract gains later (priority, value, language, …) reach every CRM through
 * `note` without a connector changing.
 */
export interface CrmLead {
  lead: LeadView;
  name: SplitName;
  email: string;
  /** As the visitor typed it (null when none). */
  phone: string | null;
  /** E.164 when it parses as a North American number, else null. */
  phoneE164: string | null;
  /** The calculator in words ("Estate tax"). */
  calculator: string;
  /** The page the lead came from (origin and path, as reported), or null. */
  page: string | null;
  /** The lead's page in the firm's portal. */
  portalLink: string;
  /** The figures, keyed as the calculator names them (for the firm's custom-field mapping). */
  figures: Record<string, number>;
  /** The note or description: several lines of plain text. */
  note: string;
}

/** Fields of the contract the note already shows in its own words, or that are not for a CRM. */
const SHOWN = new Set([
  'leadId',
  'calculator',
  'resultId',
  'name',
  'email',
  'phone',
  'state',
  'status',
  'consentText',
  'consentVersionId',
  'consentedAt',
  'consent',
  'result',
  'test',
  'quarantined',
  'quarantineReasons',
  'createdAt',
  'updatedAt',
  'priority',
  'value',
  'language',
]);
const LANGUAGES: Record<string, string> = { en: 'English', es: 'Spanish' };

/** Builds what every connector sends for this lead. `portalLeadsUrl` is the portal's `/leads` page. */
export function crmLeadOf(lead: LeadView, portalLeadsUrl: string): CrmLead {
  const figures = lead.result ? mainFigures(lead.result) : [];
  const portalLink = `${portalLeadsUrl}/${encodeURIComponent(lead.leadId)}`;
  const phoneE164 = northAmericanE164(lead.phone);
  const calculator = calculatorName(lead.calculator);
  return {
    lead,
    name: splitName(lead.name),
    email: lead.email,
    phone: lead.phone,
    phoneE164,
    calculator,
    page: lead.consent.page,
    portalLink,
    figures: Object.fromEntries(figures.map((f) => [f.key, f.value])),
    note: noteLines(lead, calculator, figures, portalLink).join('\n'),
  };
}

function noteLines(
  lead: LeadView,
  calculator: string,
  figures: { label: string; value: number }[],
  portalLink: string,
): string[] {
  const extra = lead as LeadView & Record<string, unknown>;
  const lines = [
    `${lead.test ? '[TEST] ' : ''}Enquiry from the ${calculator} calculator${lead.state ? ` (${lead.state})` : ''}.`,
  ];
  if (lead.result?.headline) lines.push(lead.result.headline);
  for (const f of figures) lines.push(`${f.label}: ${formatUsd(f.value)}`);
  lines.push(...optionalLines(extra));
  if (lead.phone) lines.push(`Phone as entered: ${lead.phone}`);
  if (lead.consent.page) lines.push(`Page: ${lead.consent.page}`);
  lines.push(`Consent given ${lead.consent.agreedAt}: "${lead.consent.text}"`);
  lines.push(`Lead in svc: ${portalLink}`);
  return lines;
}

/** The contract's optional fields, when present; a missing field means "not computed" and says nothing. */
function optionalLines(lead: Record<string, unknown>): string[] {
  const lines: string[] = [];
  const priority = lead.priority as { level?: unknown; reasons?: unknown } | undefined | null;
  if (priority && typeof priority.level === 'string') {
    const reasons = Array.isArray(priority.reasons)
      ? priority.reasons.filter((r) => typeof r === 'string')
      : [];
    lines.push(`Priority: ${priority.level}${reasons.length ? ` (${reasons.join('; ')})` : ''}`);
  }
  const value = lead.value as { label?: unknown; amount?: unknown; value?: unknown } | undefined | null;
  const amount = value && (typeof value.amount === 'number' ? value.amount : value.value);
  if (value && typeof amount === 'number')
    lines.push(`Value: ${typeof value.label === 'string' ? `${value.label} ` : ''}${formatUsd(amount)}`);
  if (typeof lead.language === 'string') lines.push(`Language: ${LANGUAGES[lead.language] ?? lead.language}`);
  for (const [key, v] of Object.entries(lead)) {
    if (SHOWN.has(key) || v === null || v === undefined) continue;
    if (['string', 'number', 'boolean'].includes(typeof v)) lines.push(`${key}: ${String(v)}`);
  }
  return lines;
}
