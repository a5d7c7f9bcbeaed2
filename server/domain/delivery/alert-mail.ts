import { html } from 'hono/html';
import { getCalculator } from '../../../calculators/index.ts';
import { stateName } from '../../../calculators/limits.ts';
import { formatUsd } from '../../../calculators/money.ts';
import { defang } from '../../../protocol/defang.ts';
import { quarantineReasonLabel } from '../../../protocol/quarantine.ts';
import { htmlText } from '../../lib/html.ts';
import { oneLine } from '../../mail/one-line.ts';
import { type LeadResult, mainFigures } from '../leads/lead-result.ts';
import { enquirySubject, firmTime, replyToAddress, shortName, telHref } from './alert-words.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
  /** A plain address (validated by `replyToAddress`): replying writes to the visitor. */
  replyTo?: string;
}

/** A row's label, its value, and where the value links in the HTML part (mailto:, tel:). */
type MailRow = [string, string, string?];

/** Subject, intro and every row value pass through `oneLine`: none of them can start a line. */
function render(
  rawSubject: string,
  rawRows: MailRow[],
  rawIntro: string,
  link?: { href: string; label: string },
) {
  const subject = oneLine(rawSubject);
  const intro = oneLine(rawIntro);
  const rows = rawRows.map(([k, v, href]): MailRow => [k, oneLine(v), href]);
  const width = Math.max(...rows.map(([k]) => k.length));
  const text = [
    intro,
    '',
    ...rows.map(([k, v]) => `${k.padEnd(width)}  ${v}`),
    ...(link ? ['', `${link.label}: ${link.href}`] : []),
    '',
    '— svc',
  ].join('\n');
  // Plain HTML: no remote images, no tracking pixels, no rewritten links.
  const body =
    htmlText(html`<!doctype html><html lang="en"><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<p>${intro}</p>
<table cellpadding="4" style="border-collapse:collapse">${rows.map(
      ([k, v, href]) =>
        html`<tr><th align="left" style="padding-right:16px">${k}</th><td>${href ? html`<a href="${href}">${v}</a>` : v}</td></tr>`,
    )}</table>
${link ? html`<p><a href="${link.href}">${link.label}</a></p>` : ''}
<p style="color:#6b7280;font-size:12px">Sent by svc because this address receives lead alerts for your firm.</p>
</body></html>`);
  return { subject, text, html: body };
}

/**
 * "New lead" mail, written for a person to act on: the subject and first line say who asked about
 * what and how much ("New estate-tax enquiry: Priya Natarajan, New York, estate of $8.5 million"),
 * the e-mail and phone are links, the page the lead came from is named, the time is in the firm's
 * zone (labelled; UTC until set), and a reply goes to the visitor: `Reply-To` is set only for a
 * plain valid address of a live lead, never for one held as possible spam.
 */
export function renderLeadAlert(input: {
  firmName: string;
  lead: Record<string, unknown>;
  result: LeadResult | null;
  link: string;
  timeZone?: string | undefined;
}): RenderedMail {
  const lead = input.lead;
  const calculator = String(lead.calculator ?? '');
  const calcName = getCalculator(calculator)?.name ?? calculator;
  const headline = input.result?.headline ?? null;
  const main = input.result ? mainFigures(input.result) : [];
  // The headline's figure is the Result row already; the rows under it are the figures behind it.
  const figures = main
    .map(({ label, value }): MailRow => [label, formatUsd(value)])
    .filter(([label, value]) => `${label}: ${value}` !== headline);
  const basisKey = getCalculator(calculator)?.figures.basis;
  const basis = main.find((f) => f.key === basisKey)?.value;
  // Visitor text is defanged in both parts: neither the mail client nor the reader can follow it.
  const name = defang(String(lead.name ?? ''));
  const email = String(lead.email ?? '');
  const phone = lead.phone ? String(lead.phone) : '';
  const state = lead.state ? String(lead.state) : null;
  const reported = (lead.consent as { page?: unknown } | undefined)?.page;
  // The page as reported by the loader, its scheme dropped (it reads better and links nothing). Its
  // host is the firm's own site (a lead keeps a page only on its embed session's origin) and reads
  // as the firm knows it; its path is the visitor's to choose, so it is defanged.
  const bare = typeof reported === 'string' ? reported.replace(/^https?:\/\//i, '') : null;
  const slash = bare?.indexOf('/') ?? -1;
  const page = bare && slash >= 0 ? `${bare.slice(0, slash)}${defang(bare.slice(slash))}` : bare;
  const held = lead.quarantined === true;
  // The firm's rating of the lead (issue 40): its level and why. For the firm only: the visitor's
  // PDF report never carries it, and the reply line asks that the quote leave it out.
  const priority = lead.priority as { level?: unknown; reasons?: unknown } | undefined;
  const level = typeof priority?.level === 'string' ? priority.level : null;
  const reasons = Array.isArray(priority?.reasons)
    ? priority.reasons.filter((r): r is string => typeof r === 'string')
    : [];
  const replyTo = held ? undefined : replyToAddress(email);
  const rows: MailRow[] = [
    ['Name', name],
    ['E-mail', email, replyToAddress(email) ? `mailto:${email}` : undefined],
    ['Phone', phone || '—', telHref(phone)],
    ['State', state ? stateName(state) : '—'],
    ['Calculator', calcName],
    ['Result', headline ?? '—'],
    ...figures,
    ...(level
      ? ([
          ['Priority', level],
          ...(reasons.length ? [['Why', reasons.join(' ')] as MailRow] : []),
        ] as MailRow[])
      : []),
    ['Page', page ?? '—'],
    ['Received', firmTime(String(lead.createdAt ?? ''), input.timeZone)],
  ];
  const who = shortName(String(lead.name ?? '')) || 'A visitor';
  const where = page ? ` on ${page}` : '';
  const reply = replyTo
    ? ` Reply to this mail to write to them.${level ? ' The priority lines are for your firm: leave them out of a reply.' : ''}`
    : '';
  return {
    ...render(
      enquirySubject({ calculator, name: String(lead.name ?? ''), state, basis }),
      rows,
      `A new enquiry for ${input.firmName}: ${who}${state ? ` (${stateName(state)})` : ''} used the ${calcName} calculator${where}${headline ? ` (${headline})` : ''}.${reply}`,
      { href: input.link, label: 'Open the lead' },
    ),
    ...(replyTo ? { replyTo } : {}),
  };
}

export function renderEndpointDisabled(input: {
  firmName: string;
  url: string;
  endpointId: string;
  failingSince: string | null;
  /** Why it was disabled at once (a private destination); absent after five days of failures. */
  reason?: string;
}): RenderedMail {
  const why = input.reason
    ? `One of ${input.firmName}'s webhook endpoints was disabled: ${input.reason}`
    : `Every delivery to one of ${input.firmName}'s webhook endpoints has failed for five days, so it was disabled.`;
  return render(
    'Webhook endpoint disabled',
    [
      ['Endpoint', input.url],
      ['Id', input.endpointId],
      ['Failing since', input.failingSince ?? '—'],
    ],
    `${why} Fix the receiver, then run "svc webhook enable ${input.endpointId}"; deliveries still pending resume.`,
  );
}

const VENDOR_NAMES: Record<string, string> = {
  'clio-grow': 'Clio Grow',
  hubspot: 'HubSpot',
  salesforce: 'Salesforce',
  wealthbox: 'Wealthbox',
};

/** A CRM refused a destination's credential: it was turned off at once; new leads wait for it. */
export function renderDestinationDisabled(input: {
  firmName: string;
  vendor: string;
  name: string | null;
  reason: string;
  link: string;
}): RenderedMail {
  const crm = VENDOR_NAMES[input.vendor] ?? input.vendor;
  return render(
    `Leads are not reaching ${crm}: its credential was refused`,
    [
      ['CRM', crm],
      ['Destination', input.name ?? '—'],
      ['What it said', input.reason],
    ],
    `${crm} refused the credential ${input.firmName} gave svc, so the destination was turned off. New leads wait for up to 7 days: give it a new credential in Settings → Destinations and turn it on, and they are sent, oldest first.`,
    { href: input.link, label: 'Open Destinations' },
  );
}

/** One line per lead of a digest or report: name (defanged), e-mail, calculator, id, time, reasons. */
export interface ListedLead {
  /** The lead's id, to find it in the portal or the API. */
  id?: string;
  name: string;
  email: string;
  calculator: string;
  createdAt: Date;
  reasons?: string[];
}

function listRows(list: ListedLead[]): MailRow[] {
  return list.map((l) => [
    l.createdAt.toISOString().slice(11, 16),
    [
      defang(l.name),
      `<${l.email}>`,
      getCalculator(l.calculator)?.name ?? l.calculator,
      ...(l.id ? [l.id] : []),
      ...(l.reasons?.length ? [`held for ${l.reasons.map(quarantineReasonLabel).join(', ')}`] : []),
    ].join(' · '),
  ]);
}

/** Past the plan's daily figure: one mail per hour listing the leads whose alerts it groups. */
export function renderLeadDigest(input: {
  firmName: string;
  leads: ListedLead[];
  total: number;
  link: string;
}): RenderedMail {
  const n = input.total;
  return render(
    `${n} more new lead${n === 1 ? '' : 's'} (digest)`,
    listRows(input.leads),
    `${input.firmName} received more leads today than its plan's daily figure, so their alerts are grouped: ${n} lead${n === 1 ? '' : 's'} in this hour, all stored and live.${n > input.leads.length ? ` The first ${input.leads.length} are listed.` : ''}`,
    { href: input.link, label: 'Open the leads' },
  );
}

/** Once a day: the leads held for spam signals and still held, each with its reasons. */
export function renderQuarantineReport(input: {
  firmName: string;
  leads: ListedLead[];
  link: string;
}): RenderedMail {
  const n = input.leads.length;
  return render(
    `${n} lead${n === 1 ? '' : 's'} held as possible spam`,
    listRows(input.leads),
    `${n} lead${n === 1 ? ' was' : 's were'} held for ${input.firmName} today for spam signals: stored, not alerted, not sent to webhooks. Release any that are real in one step; they are then alerted and delivered as new leads.`,
    { href: input.link, label: 'Review held leads' },
  );
}
