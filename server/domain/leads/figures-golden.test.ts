import { describe, expect, it } from 'vitest';
import { runCalculator } from '../../../calculators/index.ts';
import type { ResultRow } from '../../db/repos/results-repo.ts';
import { renderReport } from '../../pdf/render-report.ts';
import { readPdf } from '../../test-support/pdf-reader.ts';
import { renderLeadAlert } from '../delivery/alert-mail.ts';
import { leadsCsvHeader, leadsCsvLine } from '../portal/leads-csv.ts';
import { reportInputOf } from '../results/reports.ts';
import type { LeadView } from './intake.ts';
import { leadValue, priorityOf, rateLead } from './lead-priority.ts';
import { leadResult } from './lead-result.ts';
import { resultFigures } from './result-figures.ts';

/**
 * Everything a person reads of one fixed result of each calculator — the lead's headline, the
 * figures on the lead page, the alert mail, the CSV line and the PDF's text — written to a file
 * per calculator. Where the figures come from (which outputs are money, which is the main one)
 * may change; what a firm and its visitors read must not, unless a change is meant and reviewed.
 */
const NOW = new Date('2026-06-15T12:00:00Z');
const CASES: [string, Record<string, unknown>][] = [
  [
    'estate-tax',
    {
      estateValue: 18_500_000,
      state: 'NY',
      adjustedTaxableGifts: 250_000,
      portableExclusion: 1_000_000,
      dateOfDeath: '2026-05-01',
    },
  ],
  ['inheritance-tax', { state: 'PA', heirClass: 'sibling', bequest: 425_000 }],
  ['probate-fees', { estateValue: 2_750_000 }],
  ['executor-commission', { estateValue: 3_200_000 }],
  ['rmd', { balance: 812_345.67, age: 78 }],
];

function storedRow(calculator: string, inputs: Record<string, unknown>): ResultRow {
  const outcome = runCalculator(calculator, inputs, { now: NOW });
  if (!outcome.ok) throw new Error(`refused: ${JSON.stringify(outcome.issues)}`);
  const { result } = outcome;
  return {
    id: `res_golden_${calculator.replace(/-/g, '_')}`,
    accountId: 'acct_golden',
    licenseId: 'lic_golden',
    calculator,
    state: typeof outcome.inputs.state === 'string' ? outcome.inputs.state : null,
    inputs: outcome.inputs,
    outputs: result.outputs,
    lineItems: result.lineItems,
    notes: result.notes,
    ruleSet: result.ruleSet as unknown as Record<string, unknown>,
    disclaimer: result.disclaimer,
    noteCodes: null,
    disclaimerCode: null,
    originDomain: 'law.example',
    createdAt: NOW,
    test: false,
    embedSessionId: 'sid_golden',
    page: 'https://law.example/estate-planning',
    language: 'en',
  };
}

function leadOf(row: ResultRow): LeadView {
  const at = NOW.toISOString();
  return {
    leadId: 'lead_golden',
    calculator: row.calculator,
    resultId: row.id,
    name: 'Maria Ortega',
    email: 'maria@example.com',
    phone: '+1 212 555 0100',
    state: row.state,
    status: 'new',
    consentText: 'I agree that Hale & Partners may contact me by e-mail or by phone about my enquiry.',
    consentVersionId: 'cv_golden',
    consentedAt: at,
    consent: {
      versionId: 'cv_golden',
      text: 'I agree that Hale & Partners may contact me by e-mail or by phone about my enquiry.',
      sha256: 'a'.repeat(64),
      agreedAt: at,
      page: 'https://law.example/estate-planning',
      pageVerified: true,
      assumed: false,
      language: 'en',
    },
    result: leadResult(row),
    test: false,
    quarantined: false,
    quarantineReasons: [],
    createdAt: at,
    updatedAt: at,
    language: 'en',
    // Issue 40: rated as a stored lead is, by the one function.
    ...ratedView(row),
  };
}

function ratedView(row: ResultRow): Pick<LeadView, 'value' | 'priority'> {
  const value = leadValue(row);
  const priority = priorityOf(rateLead(row));
  return { ...(value ? { value } : {}), ...(priority ? { priority } : {}) };
}

describe('what people read of a result, one fixed result per calculator', () => {
  it.each(CASES)('%s', { timeout: 60_000 }, async (calculator, inputs) => {
    const row = storedRow(calculator, inputs);
    const lead = leadOf(row);
    const figures = resultFigures(calculator, row.inputs, row.outputs);
    const mail = renderLeadAlert({
      firmName: 'Hale & Partners',
      lead: lead as unknown as Record<string, unknown>,
      result: lead.result,
      link: 'https://portal.example/portal/leads/lead_golden',
    });
    const pdf = await readPdf(
      await renderReport(reportInputOf(row, { name: 'Hale & Partners', accentColor: '#1f4e79' }, NOW)),
    );
    const text = [
      `# ${calculator}`,
      '',
      '## Headline',
      String(lead.result?.headline),
      '',
      '## Lead page: inputs',
      ...figures.inputs.map((f) => `${f.label}: ${f.value}`),
      '',
      '## Lead page: outputs',
      ...figures.outputs.map((f) => `${f.label}: ${f.value}`),
      '',
      '## Alert mail (text)',
      mail.subject,
      mail.text,
      '',
      '## CSV',
      leadsCsvHeader().trimEnd(),
      leadsCsvLine(lead).trimEnd(),
      '',
      '## PDF (text)',
      pdf.text,
      '',
    ].join('\n');
    // The firm's rating is in its alert mail, never in the visitor's report.
    if (lead.priority) {
      expect(mail.text).toMatch(new RegExp(`^Priority +${lead.priority.level}$`, 'm'));
      for (const reason of lead.priority.reasons) expect(pdf.text).not.toContain(reason.slice(0, 30));
    }
    expect(pdf.text).not.toMatch(/priority/i);
    await expect(text).toMatchFileSnapshot(`./__figures__/${calculator}.txt`);
  });
});
