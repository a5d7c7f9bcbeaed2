import { describe, expect, it } from 'vitest';
import { calculators, getCalculator, runCalculator } from '../calculators/index.ts';
import { collectInputs, type Field, fieldsOf, initialValue, parseValue } from './fields.ts';

describe('fieldsOf', () => {
  it.each(calculators.map((c) => c.slug))('gives %s one labelled field per schema key, in order', (slug) => {
    const fields = fieldsOf(slug);
    const shape = (getCalculator(slug)!.inputSchema as unknown as { shape: object }).shape;
    expect(fields.map((f) => f.name)).toEqual(Object.keys(shape));
    for (const f of fields) expect(f.label.length).toBeGreaterThan(1);
  });

  it('reads kinds, options, requiredness and defaults from the estate-tax schema', () => {
    const byName = Object.fromEntries(fieldsOf('estate-tax').map((f) => [f.name, f]));
    expect(byName.estateValue).toMatchObject({ kind: 'money', required: true });
    expect(byName.estateValue!.hint).toBeTruthy();
    expect(byName.state).toMatchObject({ kind: 'select', required: true });
    expect(byName.state!.options).toContain('NY');
    expect(byName.adjustedTaxableGifts).toMatchObject({ kind: 'money', required: false, defaultValue: 0 });
    expect(byName.dateOfDeath).toMatchObject({ kind: 'date', required: false });
    expect(byName.applyStateDeathTaxDeduction).toMatchObject({ kind: 'boolean', defaultValue: true });
  });

  it('tells a plain number from money', () => {
    const byName = Object.fromEntries(fieldsOf('rmd').map((f) => [f.name, f]));
    expect(byName.age!.kind).toBe('number');
    expect(byName.balance!.kind).toBe('money');
  });

  it('is empty for an unknown calculator', () => {
    expect(fieldsOf('nope')).toEqual([]);
  });
});

describe('parseValue', () => {
  const money: Field = { name: 'm', label: 'M', kind: 'money', required: true };
  const flag: Field = { name: 'b', label: 'B', kind: 'boolean', required: false };
  const text: Field = { name: 't', label: 'T', kind: 'select', required: true };
  it.each([
    [money, '1,250,000', 1_250_000],
    [money, ' $3 000.50 ', 3000.5],
    [money, '', undefined],
    [money, '12abc', '12abc'],
    [money, '$', '$'],
    [flag, true, true],
    [flag, 'yes', false],
    [text, 'NY', 'NY'],
    [text, '', undefined],
  ])('%# %j → %j', (field, raw, expected) => {
    expect(parseValue(field, raw)).toEqual(expected);
  });
});

it('turns the initial form into inputs the calculator accepts once the required answers are in', () => {
  const fields = fieldsOf('estate-tax');
  const values = Object.fromEntries(fields.map((f) => [f.name, initialValue(f)]));
  expect(runCalculator('estate-tax', collectInputs(fields, values)).ok).toBe(false);
  const inputs = collectInputs(fields, { ...values, estateValue: '16,000,000', state: 'NY' });
  expect(inputs).toMatchObject({ estateValue: 16_000_000, state: 'NY', applyStateDeathTaxDeduction: true });
  expect(runCalculator('estate-tax', inputs).ok).toBe(true);
});
