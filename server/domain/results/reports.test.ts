import { describe, expect, it } from 'vitest';
import { runCalculator } from '../../../calculators/index.ts';
import type { ResultRow } from '../../db/repos/results-repo.ts';
import { renderReport } from '../../pdf/render-report.ts';
import { readPdf } from '../../test-support/pdf-reader.ts';
import { storedTexts, toResultView } from './calculations.ts';
import { reportInputOf } from './reports.ts';

const NOW = new Date('2026-11-28T12:00:00Z');

/** A Spanish estate-tax result as stored, with its codes, or as stored before codes (null). */
function row(codes: boolean, notes?: string[]): ResultRow {
  const outcome = runCalculator(
    'estate-tax',
    { estateValue: 8_000_000, state: 'NY', adjustedTaxableGifts: 1 },
    { now: NOW },
  );
  if (!outcome.ok) throw new Error('refused');
  const texts = storedTexts(outcome.result);
  return {
    id: 'res_codes',
    accountId: 'acct_1',
    licenseId: 'lic_1',
    calculator: 'estate-tax',
    state: 'NY',
    inputs: outcome.inputs,
    outputs: outcome.result.outputs,
    lineItems: codes ? texts.lineItems : outcome.result.lineItems,
    notes: notes ?? texts.notes,
    noteCodes: codes ? texts.noteCodes : null,
    disclaimer: texts.disclaimer,
    disclaimerCode: codes ? texts.disclaimerCode : null,
    ruleSet: outcome.result.ruleSet as unknown as Record<string, unknown>,
    originDomain: 'law.example',
    createdAt: NOW,
    test: false,
    embedSessionId: 'sid_1',
    page: null,
    language: 'es',
  };
}

describe('stored texts by code', () => {
  it('stores and serves a code beside every English text', () => {
    const view = toResultView(row(true));
    expect(view.lineItems.every((item) => typeof item.code === 'string')).toBe(true);
    expect(view.lineItems[1]).toMatchObject({
      code: 'estate-tax.item.stateTax',
      params: { state: 'New York' },
    });
    expect(view.noteCodes.map((ref) => ref?.code)).toContain('estate-tax.note.giftTaxPaid');
    expect(view.disclaimerCode).toBe('disclaimer');
  });

  it('says a Spanish report by the stored codes, even when the stored English was reworded since', () => {
    const stored = row(true);
    const reworded = { ...stored, notes: stored.notes.map((n) => `${n} (old wording)`) };
    const report = reportInputOf(reworded, { name: 'Hale', accentColor: null }, NOW);
    expect(report.notes.join(' ')).toContain('Se supone que no se pagó impuesto sobre donaciones');
    expect(report.disclaimer).toMatch(/^Esta es una estimación/);
  });

  it('reads a result stored before codes from its English, and keeps English it cannot place', () => {
    const old = row(false, [
      'Gift tax already paid on the adjusted taxable gifts is taken as 0; if gift tax was paid, the federal tax here is overstated by that amount.',
      'A note no calculator writes any more.',
    ]);
    expect(toResultView(old).noteCodes).toEqual([{ code: 'estate-tax.note.giftTaxPaid' }, null]);
    const report = reportInputOf(old, { name: 'Hale', accentColor: null }, NOW);
    expect(report.notes[0]).toMatch(/^Se supone/);
    expect(report.notes[1]).toBe('A note no calculator writes any more.');
    expect(report.lineItems[0]!.label).toBe('Patrimonio imponible');
  });

  it('says a Spanish report’s answers in Spanish: the date of death in words, the heir’s class by name', () => {
    const dated = { ...row(true), inputs: { ...row(true).inputs, dateOfDeath: '2026-05-01' } };
    const report = reportInputOf(dated, { name: 'Hale', accentColor: null }, NOW);
    expect(report.inputs.find((i) => i.label === 'Fecha de fallecimiento')?.value).toBe('1 de mayo de 2026');
    const outcome = runCalculator(
      'inheritance-tax',
      { state: 'PA', bequest: 300_000, heirClass: 'sibling' },
      { now: NOW },
    );
    if (!outcome.ok) throw new Error('refused');
    const texts = storedTexts(outcome.result);
    const heir: ResultRow = {
      ...row(true),
      calculator: 'inheritance-tax',
      state: 'PA',
      inputs: outcome.inputs,
      outputs: outcome.result.outputs,
      ...texts,
      ruleSet: outcome.result.ruleSet as unknown as Record<string, unknown>,
    };
    const values = reportInputOf(heir, { name: 'Hale', accentColor: null }, NOW).inputs.map((i) => i.value);
    expect(values).toContain('hermanos');
    expect(values).not.toContain('sibling');
  });

  it('says an English report’s heir class by its name, never the API’s code, as the PDF prints it', async () => {
    for (const [state, heirClass, name] of [
      ['PA', 'sibling', 'Brother or sister (PA)'],
      ['NJ', 'C', 'Brother, sister or child-in-law (NJ class C)'],
      ['NE', 'remote', 'Remote relative (NE)'],
    ] as const) {
      const input = reportInputOf(
        stored('inheritance-tax', { state, bequest: 300_000, heirClass }, 'en'),
        FIRM,
        NOW,
      );
      expect(input.inputs.find((i) => i.label === 'Heir class')?.value).toBe(name);
      const { text } = await readPdf(await renderReport(input));
      expect(text).toContain(`Heir class ${name}`);
    }
    // A Spanish report of a class the short Spanish names do not cover says the widget's Spanish choice.
    const nj = reportInputOf(
      stored('inheritance-tax', { state: 'NJ', bequest: 300_000, heirClass: 'C' }, 'es'),
      FIRM,
      NOW,
    );
    const value = nj.inputs.find((i) => i.label === 'Clase de heredero')?.value;
    expect(value).not.toBe('C');
    expect(value).not.toMatch(/Brother/);
  });

  it('a Spanish report names DSUE as an English acronym and dates its rules "desde el"', async () => {
    const dsue = reportInputOf(
      stored('estate-tax', { estateValue: 16_000_000, state: 'NY', portableExclusion: 2_000_000 }, 'es'),
      FIRM,
      NOW,
    );
    expect(dsue.inputs.map((i) => i.label)).toContain(
      'Exclusión no utilizada del cónyuge fallecido (DSUE, por sus siglas en inglés)',
    );
    const { text } = await readPdf(
      await renderReport(reportInputOf(stored('probate-fees', { estateValue: 900_000 }, 'es'), FIRM, NOW)),
    );
    expect(text.replace(/\s+/g, ' ')).toMatch(/NORMAS VIGENTES DESDE EL \d{1,2} de [a-z]+ de \d{4}/);
  });
});

/** A stored result of any calculator, in English or Spanish, with its codes. */
function stored(calculator: string, inputs: Record<string, unknown>, language: 'en' | 'es'): ResultRow {
  const outcome = runCalculator(calculator, inputs, { now: NOW });
  if (!outcome.ok) throw new Error('refused');
  const texts = storedTexts(outcome.result);
  return {
    ...row(true),
    calculator,
    state: typeof outcome.inputs.state === 'string' ? outcome.inputs.state : null,
    inputs: outcome.inputs,
    outputs: outcome.result.outputs,
    lineItems: texts.lineItems,
    notes: texts.notes,
    noteCodes: texts.noteCodes,
    disclaimer: texts.disclaimer,
    disclaimerCode: texts.disclaimerCode,
    ruleSet: outcome.result.ruleSet as unknown as Record<string, unknown>,
    language,
  };
}

const FIRM = {
  name: 'Hale & Partners LLP',
  accentColor: '#1f4e79',
  contact: {
    phone: '+1 212 555 0143',
    email: 'office@halepartners.com',
    website: 'https://www.halepartners.com',
    address: '100 Main Street, Suite 400\nNew York, NY 10001',
    callToAction: 'Call us to discuss your estate plan',
  },
};

describe('a typical report as a family prints it', () => {
  it.each([
    ['estate-tax', 'en', { estateValue: 8_500_000, state: 'NY', dateOfDeath: '2026-11-01' }],
    ['estate-tax', 'es', { estateValue: 8_500_000, state: 'NY', dateOfDeath: '2026-11-01' }],
    ['estate-tax', 'es', { estateValue: 16_500_000, state: 'MA', adjustedTaxableGifts: 250_000 }],
    ['probate-fees', 'en', { estateValue: 30_000_000 }],
  ] as const)(
    '%s (%s) keeps to one page: result, next step and small print together, law cited in the small print only',
    async (calculator, language, inputs) => {
      const input = reportInputOf(stored(calculator, inputs, language), FIRM, NOW);
      const { pages, text } = await readPdf(await renderReport(input));
      expect(pages).toBe(1);
      const nextStep = language === 'es' ? 'PRÓXIMO PASO' : 'NEXT STEP';
      expect(text).toContain(`${nextStep} Call us to discuss your estate plan`);
      expect(text).toContain(input.disclaimer.replace(/\s+/g, ' '));
      // Plain words in the figures; the sections of law once, in the small print after the rules.
      const smallPrint = text.indexOf(language === 'es' ? 'Base del cálculo' : 'Basis of calculation');
      expect(smallPrint).toBeGreaterThan(0);
      expect(text.slice(0, smallPrint)).not.toContain('§');
      expect(text.slice(smallPrint)).toMatch(/§\d/);
      expect(text).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    },
  );
});
