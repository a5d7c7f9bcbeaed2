import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { estateTaxCore } from '../../calculators/estate-tax/core.ts';
import { executorCommissionCore } from '../../calculators/executor-commission/core.ts';
import type { Catalogue } from '../../calculators/i18n/catalogue.ts';
import { NUMBER_WORDS, spanishDate, spanishRules } from '../../calculators/i18n/es/common.ts';
import { inheritanceTaxCore } from '../../calculators/inheritance-tax/core.ts';
import { HEIR_CLASSES } from '../../calculators/inheritance-tax/tables.ts';
import { US_STATES } from '../../calculators/limits.ts';
import { probateFeesCore } from '../../calculators/probate-fees/core.ts';
import { rmdCore } from '../../calculators/rmd/core.ts';
import type { CalculationResult } from '../../calculators/types.ts';
import { visitorNotes } from '../../calculators/visitor-notes.ts';
import { estateTaxForm } from '../forms/estate-tax.ts';
import { executorCommissionForm } from '../forms/executor-commission.ts';
import { inheritanceTaxForm } from '../forms/inheritance-tax.ts';
import { probateFeesForm } from '../forms/probate-fees.ts';
import { rmdForm } from '../forms/rmd.ts';
import type { WidgetCalculator } from '../forms/types.ts';
import { t, tx, useCatalogue } from './t.ts';

const ROOT = join(import.meta.dirname, '..', '..');
const NOW = { now: new Date('2026-11-28T12:00:00Z') };

// What each calculator stores (line items, notes, the disclaimer) is said by code: calculators/texts.test.ts.

const CALCULATORS: Record<string, WidgetCalculator> = {
  'estate-tax': { core: estateTaxCore, form: estateTaxForm },
  'inheritance-tax': { core: inheritanceTaxCore, form: inheritanceTaxForm },
  rmd: { core: rmdCore, form: rmdForm },
  'probate-fees': { core: probateFeesCore, form: probateFeesForm },
  'executor-commission': { core: executorCommissionCore, form: executorCommissionForm },
};

/** The English the widget's own code passes to `t(…)`, read from its sources (templates included). */
function templatesInSources(): string[] {
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory()
        ? files(join(dir, e.name))
        : /\.tsx?$/.test(e.name) && !/\.test\./.test(e.name)
          ? [join(dir, e.name)]
          : [],
    );
  const found = new Set<string>();
  for (const file of files('widget')) {
    const text = readFileSync(join(ROOT, file), 'utf8');
    // Each `t(…)` call's first argument: a literal, or a choice of literals (`t(a ? 'x' : 'y')`).
    for (const m of text.matchAll(/\bt\(/g)) {
      let depth = 1;
      let end = m.index + 2;
      while (depth > 0 && end < text.length) {
        const c = text[end++];
        if (c === '(') depth++;
        else if (c === ')') depth--;
      }
      const first = text.slice(m.index + 2, end - 1).split(/,\s*(?=[\w(])/)[0]!;
      for (const lit of first.matchAll(/'((?:[^'\\]|\\.)*)'/g)) found.add(lit[1]!);
    }
    // Sentences said where they are shown: a field's error (`t(error)`), a chart's slice (`t(p.label)`).
    if (file.endsWith('validate.ts'))
      for (const m of text.matchAll(/\berror: '((?:[^'\\]|\\.)*)'/g)) found.add(m[1]!);
    const chart = text.slice(text.search(/\bchart[(:]/) >>> 0); // from the form's chart on, or nothing
    for (const m of chart.matchAll(/\blabel: '((?:[^'\\]|\\.)*)'/g)) found.add(m[1]!);
  }
  return [...found];
}

const load = async (slug: string): Promise<Catalogue> =>
  (await import(`../../calculators/i18n/es/${slug}.ts`)).default;

afterEach(() => useCatalogue(undefined));

describe('the Spanish catalogues', () => {
  const templates = templatesInSources();

  it('finds the widget’s own words in its sources', () => {
    expect(templates).toContain('Calculate');
    expect(templates).toContain('Talk to {0} about this result');
    expect(templates).toContain('Send my details');
    expect(templates).toContain('Enter an amount of zero or more'); // said where the field shows it
    expect(templates).toContain('Left in the estate'); // a chart's slice, said by the chart
    expect(templates).toContain('To your heirs');
    expect(templates.length).toBeGreaterThan(60);
  });

  for (const slug of Object.keys(CALCULATORS)) {
    describe(slug, () => {
      it('has every word of the widget’s code and of this calculator’s form', async () => {
        const es = await load(slug);
        const { core, form } = CALCULATORS[slug]!;
        const own = [
          `${core.name} calculator`,
          form.lede,
          ...form.fields.flatMap((f) => [
            f.label,
            f.help,
            f.missing,
            f.tooLow,
            ...(f.options ?? []).map((o) => o.label),
          ]),
          ...form.figures.map(([, label]) => label),
        ].filter((s): s is string => Boolean(s));
        // Templates of other calculators' forms are not this page's: only the shared ones and its own.
        const sharedOrOwn = templates.filter((en) => {
          const formFile = readFileSync(join(ROOT, 'widget/forms', `${slug}.ts`), 'utf8');
          const otherForms = readdirSync(join(ROOT, 'widget/forms'))
            .filter((f) => f !== `${slug}.ts`)
            .map((f) => readFileSync(join(ROOT, 'widget/forms', f), 'utf8'))
            .join('\n');
          return formFile.includes(en) || !otherForms.includes(en);
        });
        // A number field's checks only where the form has one (the other pages' chunks go without).
        const numbers = form.fields.some((f) => f.kind === 'number');
        const missing = [...own, ...sharedOrOwn.filter((en) => numbers || !(en in NUMBER_WORDS))].filter(
          (en) => es.words[en] === undefined && !/^[A-Z][a-z]+( [A-Z][a-z]+)*$/.test(en),
        );
        expect(missing).toEqual([]);
        // The disclaimer is a stored text: said by its code (calculators/texts.ts).
        expect(es.text(core.disclaimer)).toBe(es.texts.disclaimer);
      });
    });
  }

  it('writes dates and the rules in Spanish words, and numbers as US firms do', async () => {
    expect(spanishDate('2026-01-01')).toBe('1 de enero de 2026');
    expect(spanishDate('2027-12-31')).toBe('31 de diciembre de 2027');
    expect(
      spanishRules('Federal rules for deaths in 2026; Washington rules for deaths on or after 1 July 2026'),
    ).toBe(
      'las federales para fallecimientos en 2026 y las de Washington para fallecimientos a partir del 1 de julio de 2026',
    );
    expect(spanishRules('Washington rules for deaths from 1 January to 30 June 2026')).toBe(
      'las de Washington para fallecimientos del 1 de enero al 30 de junio de 2026',
    );
    useCatalogue(await load('estate-tax'));
    expect(estateTaxForm.headline({ federalTax: 1_490_000, stateTax: 773_212 }, { state: 'NY' })).toBe(
      'El patrimonio tendría que pagar aproximadamente $1,490,000 de impuesto federal sobre el patrimonio y aproximadamente $773,200 de impuesto sobre el patrimonio de Nueva York.',
    );
    expect(t('Enter an amount of zero or more')).toBe('Escriba una cantidad de cero o más');
    useCatalogue(await load('rmd'));
    expect(t('Enter {0} or more', 73)).toBe('Escriba 73 o más'); // the RMD's age: a number field
    useCatalogue(await load('estate-tax'));
    expect(tx('NY has no inheritance tax.')).toBe('NY has no inheritance tax.'); // not this page's sentence
  });

  it('leaves English exactly as it was without a catalogue', () => {
    expect(t('Enter {0} or more', 73)).toBe('Enter 73 or more');
    expect(t('Calculate')).toBe('Calculate');
    expect(tx('NY has no state estate tax.')).toBe('NY has no state estate tax.');
    expect(estateTaxForm.headline({ federalTax: 0, stateTax: 0 }, { state: 'FL' })).toBe(
      'Your estate would owe no federal or Florida estate tax.',
    );
  });
});
