import type { ReportInput } from '../server/pdf/render-report.ts';

/** A typical estate-tax report: the figure `npm run bench` times. */
export function typicalReport(): ReportInput {
  return {
    firmName: 'Łukasz Żółć & Søren Ñúñez, LLP',
    calculatorName: 'Estate tax',
    calculatorSlug: 'estate-tax',
    inputs: [
      { label: 'Taxable estate', value: '$16,500,000.55' },
      { label: 'State of residence', value: 'MA' },
      { label: 'Adjusted taxable gifts', value: '$250,000.00' },
      { label: 'Deceased spouse’s unused exclusion (DSUE)', value: '$0.00' },
      { label: 'Deduct state estate tax (IRC §2058)', value: 'yes' },
    ],
    lineItems: [
      { label: 'Taxable estate', amount: 16_500_000.55, kind: 'subtotal' },
      { label: 'MA estate tax', amount: 1_999_200.04, kind: 'tax' },
      { label: 'State death tax deduction (IRC §2058)', amount: -1_999_200.04, kind: 'deduction' },
      { label: 'Adjusted taxable gifts', amount: 250_000, kind: 'income' },
      { label: 'Federal tentative tax (§2001(c))', amount: 5_846_320.2, kind: 'info' },
      { label: 'Applicable credit on $15M exclusion', amount: -5_945_800, kind: 'credit' },
      { label: 'Federal estate tax', amount: 0, kind: 'tax' },
      { label: 'Total estate tax', amount: 1_999_200.04, kind: 'total' },
    ],
    totals: [
      { label: 'Federal estate tax', amount: 0 },
      { label: 'State estate tax', amount: 1_999_200.04 },
      { label: 'Total estate tax', amount: 1_999_200.04 },
    ],
    extraOutputs: [{ label: 'Effective rate', value: '12.12 %' }],
    notes: ['Massachusetts: no cliff since 2023; the credit is $99,600.'],
    ruleSet: { id: 'us-estate-2026', taxYear: 2026, effectiveDate: '2026-01-01' },
    disclaimer:
      'This is an estimate for information only, not legal or tax advice. Consult a qualified attorney or tax professional.',
    resultId: 'res_benchmark',
    generatedAt: new Date('2026-03-01T12:00:00Z'),
  };
}
