import { describe, expect, it } from 'vitest';
import type { Catalogue } from './i18n/catalogue.ts';
import { SPANISH_REPORTS } from './i18n/es/report.ts';
import { calculators, runCalculator } from './index.ts';
import { HEIR_CLASSES } from './inheritance-tax/tables.ts';
import { US_STATES } from './limits.ts';
import { FIRM_TEXTS, fill, HEADLINE_TEXTS, TEXTS, textCode } from './texts.ts';
import { visitorNotes } from './visitor-notes.ts';

const NOW = new Date('2026-11-28T12:00:00Z');
const LATE = new Date('2031-06-01T12:00:00Z');

/** Answers wide enough to reach every text each calculator writes (as the server stores it). */
const GRID: Record<string, Record<string, unknown>[]> = {
  'estate-tax': US_STATES.flatMap((state) =>
    [1_000_000, 7_500_000, 20_000_000].flatMap((estateValue) =>
      ['2026-03-01', '2026-08-01', '2027-03-01', undefined].map((dateOfDeath) => ({
        estateValue,
        state,
        adjustedTaxableGifts: 500_000,
        portableExclusion: 50_000_000,
        ...(dateOfDeath ? { dateOfDeath } : {}),
      })),
    ),
  ),
  'inheritance-tax': US_STATES.flatMap((state) =>
    [...new Set(Object.values(HEIR_CLASSES).flat() as string[])].map((heirClass) => ({
      state,
      bequest: 300_000,
      heirClass,
    })),
  ),
  rmd: [73, 90, 110].map((age) => ({ balance: 500_000, age })),
  'probate-fees': [1e6, 3e7].map((estateValue) => ({ estateValue })),
  'executor-commission': [{ estateValue: 1e6 }],
};

/** Every text a calculator stores over its grid, today and past the tables' dates. */
function textsOf(slug: string, notesOnly = false): Set<string> {
  const found = new Set<string>();
  const notes = new Set<string>();
  for (const inputs of GRID[slug]!) {
    for (const now of [NOW, LATE]) {
      const outcome = runCalculator(slug, inputs, { now });
      if (!outcome.ok) continue;
      const { result } = outcome;
      for (const item of result.lineItems) found.add(item.label);
      for (const note of result.notes) {
        found.add(note);
        notes.add(note);
      }
      found.add(result.disclaimer);
      const info = calculators.find((c) => c.slug === slug)!;
      const main = result.outputs[info.figures.main];
      if (typeof main === 'number') found.add(`${info.outputLabels[info.figures.main]}: $1,234.00`);
    }
  }
  return notesOnly ? notes : found;
}

const spanish = async (slug: string): Promise<Catalogue> => (await import(`./i18n/es/${slug}.ts`)).default;
const names = (template: string) => [...template.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

describe('stable codes for what calculators store', () => {
  for (const { slug } of calculators) {
    it(`${slug}: every text it writes has a code, and the code says it again`, () => {
      const texts = [...textsOf(slug)];
      expect(texts.length).toBeGreaterThan(3);
      const uncoded = texts.filter((en) => {
        const ref = textCode(en);
        if (!ref) return true;
        expect(ref.code === 'disclaimer' || ref.code.startsWith(`${slug}.`), ref.code).toBe(true);
        expect(fill(TEXTS[ref.code]!, ref.params)).toBe(en);
        return false;
      });
      expect(uncoded).toEqual([]);
    });

    it(`${slug}: every code has Spanish, with no value the English lacks, and a visitor’s text is said by it`, async () => {
      const es = await spanish(slug);
      const report = SPANISH_REPORTS[slug]!;
      const codes = Object.keys(TEXTS).filter((c) => c === 'disclaimer' || c.startsWith(`${slug}.`));
      // The widget's page has every code a visitor reads; the report's catalogue the firm's notes and
      // the lead's headline too.
      const firmOnly = (c: string) => c in FIRM_TEXTS || c in HEADLINE_TEXTS;
      expect(codes.filter((c) => es.texts[c] === undefined && !firmOnly(c))).toEqual([]);
      expect(codes.filter((c) => es.texts[c] !== undefined && firmOnly(c))).toEqual([]);
      expect(codes.filter((c) => report.texts[c] === undefined)).toEqual([]);
      // Spanish puts in only values the English has (it may leave one out: "Este estado …").
      for (const c of codes)
        expect(
          names(report.texts[c]!).filter((n) => !names(TEXTS[c]!).includes(n)),
          c,
        ).toEqual([]);
      // The widget says the English it computed by its code (a label its form also names, by that).
      for (const en of textsOf(slug)) {
        const ref = textCode(en)!;
        if (ref.code in FIRM_TEXTS) expect(report.say(ref)).toContain('fuentes secundarias');
        else if (ref.code in HEADLINE_TEXTS)
          expect(report.say(ref), en).toMatch(/^[A-ZÁÉÍÓÚ][^:]+: \$1,234\.00$/);
        else expect(es.text(en), en).toBe(es.words[en] ?? es.say(ref));
      }
      // A note as a visitor reads it (citations left out) too.
      for (const en of textsOf(slug, true)) {
        for (const visitor of visitorNotes([en])) {
          expect(es.text(visitor), visitor).toBe(es.say(textCode(en)!));
          expect(es.text(visitor)).not.toBe(visitor);
        }
      }
    });
  }

  it('says values in Spanish: states, dates, heir classes; amounts as US firms write them', async () => {
    const estate = await spanish('estate-tax');
    expect(estate.say({ code: 'estate-tax.item.stateTax', params: { state: 'New York' } })).toBe(
      'Impuesto sobre el patrimonio de Nueva York',
    );
    expect(
      estate.say({
        code: 'estate-tax.note.outsideCoverage',
        params: { today: '2031-06-01', from: '2026-01-01', to: '2027-12-31', date: '2027-12-31' },
      }),
    ).toContain('hoy (1 de junio de 2031)');
    const heirs = await spanish('inheritance-tax');
    expect(heirs.text('Maryland inheritance tax (class exempt)')).toBe(
      'Impuesto sobre la herencia de Maryland (clase exenta)',
    );
    // The lead's headline: the server's report catalogue says it (no widget page shows it).
    expect(SPANISH_REPORTS['estate-tax']!.say(textCode('Total estate tax: $1,490,000.00')!)).toBe(
      'Impuesto total sobre el patrimonio: $1,490,000.00',
    );
  });

  it('leaves a text no code knows in English (a result stored before its sentence changed)', async () => {
    const es = await spanish('estate-tax');
    expect(textCode('A sentence no calculator writes.')).toBeUndefined();
    expect(es.text('A sentence no calculator writes.')).toBe('A sentence no calculator writes.');
    expect(es.say({ code: 'no.such.code' })).toBeUndefined();
  });
});
