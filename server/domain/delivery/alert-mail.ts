import { getCalculator } from '../../../calculators/index.ts';
import { oneLine } from '../../mail/one-line.ts';
import { formatUsd } from '../../pdf/format.ts';
import { type LeadResult, mainFigures } from '../leads/lead-result.ts';

export interface RenderedMail {
  subject: string;
  text: string;
  html: string;
}

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/** Subject, intro and every row value pass through `oneLine`: none of them can start a line. */
function render(
  rawSubject: string,
  rawRows: [string, string][],
  rawIntro: string,
  link?: { href: string; label: string },
) {
  const subject = oneLine(rawSubject);
  const intro = oneLine(rawIntro);
  const rows = rawRows.map(([k, v]): [string, string] => [k, oneLine(v)]);
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
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2933;line-height:1.5">
<p>${escapeHtml(intro)}</p>
<table cellpadding="4" style="border-collapse:collapse">${rows
    .map(
      ([k, v]) =>
        `<tr><th align="left" style="padding-right:16px">${escapeHtml(k)}</th><td>${escapeHtml(v)}</td></tr>`,
    )
    .join('')}</table>
${link ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}
<p style="color:#6b7280;font-size:12px">Sent by svc because this address receives lead alerts for your firm.</p>
</body></html>`;
  return { subject, text, html };
}

/**
 * "New lead" mail: who, how to reach them, which calculator, the headline figure and the main
 * figures behind it (estate value, each tax or fee), and a link to the lead.
 */
export function renderLeadAlert(input: {
  firmName: string;
  lead: Record<string, unknown>;
  result: LeadResult | null;
  link: string;
}): RenderedMail {
  const lead = input.lead;
  const calculator = String(lead.calculator ?? '');
  const calcName = getCalculator(calculator)?.name ?? calculator;
  const headline = input.result?.headline ?? null;
  const figures = input.result
    ? mainFigures(input.result).map(({ label, value }): [string, string] => [label, formatUsd(value)])
    : [];
  const rows: [string, string][] = [
    ['Name', String(lead.name ?? '')],
    ['E-mail', String(lead.email ?? '')],
    ['Phone', lead.phone ? String(lead.phone) : '—'],
    ['State', lead.state ? String(lead.state) : '—'],
    ['Calculator', calcName],
    ['Result', headline ?? '—'],
    ...figures,
    ['Received', String(lead.createdAt ?? '')],
  ];
  return render(
    `New lead: ${String(lead.name ?? '')} (${calcName})`,
    rows,
    `${input.firmName} has a new lead from the ${calcName}.`,
    { href: input.link, label: 'Open the lead' },
  );
}

export function renderEndpointDisabled(input: {
  firmName: string;
  url: string;
  endpointId: string;
  failingSince: string | null;
}): RenderedMail {
  return render(
    'Webhook endpoint disabled',
    [
      ['Endpoint', input.url],
      ['Id', input.endpointId],
      ['Failing since', input.failingSince ?? '—'],
    ],
    `Every delivery to one of ${input.firmName}'s webhook endpoints has failed for five days, so it was disabled. Fix the receiver, then run "svc webhook enable ${input.endpointId}"; deliveries still pending resume.`,
  );
}
