import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runCalculator } from '../calculators/index.ts';
import { estateTaxForm } from './forms/estate-tax.ts';
import { executorCommissionForm } from './forms/executor-commission.ts';
import { inheritanceTaxForm } from './forms/inheritance-tax.ts';
import { probateFeesForm } from './forms/probate-fees.ts';
import { rmdForm } from './forms/rmd.ts';
import type { FormSpec } from './forms/types.ts';
import { formatMoneyInput, moneyDigits, validate } from './validate.ts';

const FORMS: [string, FormSpec][] = [
  ['estate-tax', estateTaxForm],
  ['inheritance-tax', inheritanceTaxForm],
  ['probate-fees', probateFeesForm],
  ['executor-commission', executorCommissionForm],
  ['rmd', rmdForm],
];

const money = fc.oneof(
  fc.constantFrom('', '0', '2,500,000', '$8,000,000.50', '16000000', '-5', '1.005', 'abc', '1000000000001'),
  fc.integer({ min: 0, max: 50_000_000 }).map(String),
);
const pick = (values: readonly string[]) => fc.constantFrom('', 'XX', ...values);

function arbitraryValues(form: FormSpec) {
  return fc.record(
    Object.fromEntries(
      form.fields.map((f) => [
        f.name,
        f.kind === 'money'
          ? money
          : f.kind === 'select'
            ? pick(f.options?.map((o) => o.value) ?? [])
            : f.kind === 'boolean'
              ? fc.boolean()
              : f.kind === 'date'
                ? fc.constantFrom('', '2026-06-30', '2025-12-31', '2026-02-30', 'tomorrow')
                : fc.constantFrom('', '72', '73', '75.5', '100', '131', 'x'),
      ]),
    ),
  );
}

const JUNE = new Date('2026-06-01T00:00:00Z');

/** The answers as a naive form would send them: numbers where the text is a number, nothing for empty. */
function plain(form: FormSpec, values: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of form.fields) {
    const v = values[f.name];
    if (v === '' || v === undefined) continue;
    if (f.kind === 'money' || f.kind === 'number') {
      const text = f.kind === 'money' ? moneyDigits(String(v)) : String(v);
      out[f.name] = text.trim() !== '' && Number.isFinite(Number(text)) ? Number(text) : text;
    } else out[f.name] = v;
  }
  return out;
}

describe('the widget’s validator agrees with the calculator’s schema', () => {
  it.each(FORMS)('%s: accepts exactly what the schema accepts, with the same inputs', (slug, form) => {
    fc.assert(
      fc.property(arbitraryValues(form), (values) => {
        const mine = validate(form, values);
        const schema = runCalculator(slug, mine.inputs, { now: JUNE });
        // Fields the widget refuses never reach the schema; what it accepts, the schema accepts as is.
        if (mine.ok) {
          expect(schema.ok, JSON.stringify({ values, schema })).toBe(true);
          if (schema.ok) expect(schema.inputs).toMatchObject(mine.inputs);
        } else {
          // What the widget refuses, the schema refuses too, given the same answers read plainly.
          expect(runCalculator(slug, plain(form, values), { now: JUNE }).ok, JSON.stringify(values)).toBe(
            false,
          );
        }
      }),
      { numRuns: 300 },
    );
  });

  it.each([
    ['2,500,000', '2500000'],
    ['$8,000,000.50', '8000000.50'],
    ['8 000 000 USD', '8000000'],
  ])('reads a pasted figure %s as %s', (pasted, digits) => {
    expect(moneyDigits(pasted)).toBe(digits);
  });

  it.each([
    ['8000000', '8,000,000'],
    ['$1234.567', '1,234.56'],
    ['0012', '12'],
    ['.5', '0.5'],
  ])('formats %s as %s while typing', (typed, shown) => {
    expect(formatMoneyInput(typed)).toBe(shown);
  });

  it('refuses what the schema would refuse, in the visitor’s words', () => {
    expect(validate(rmdForm, { balance: '100,000', age: '72' })).toMatchObject({
      ok: false,
      issues: [{ path: 'age', message: expect.stringMatching(/from age 73/) }],
    });
    expect(validate(inheritanceTaxForm, { state: 'PA', bequest: '10,000', heirClass: '' })).toMatchObject({
      ok: false,
      issues: [{ path: 'heirClass' }],
    });
    expect(runCalculator('inheritance-tax', { state: 'PA', bequest: 10_000 }).ok).toBe(false);
  });
});
