/**
 * Each calculator's slug and the name a person reads: the widget's heading, the PDF, the alert
 * mail and the portal's lists all show this one. Import-free on purpose: the portal reads the
 * table without bundling a calculator, and a widget page bundles only its own entry.
 */
export const ESTATE_TAX = { slug: 'estate-tax', name: 'Estate tax' } as const;
export const INHERITANCE_TAX = { slug: 'inheritance-tax', name: 'Inheritance tax' } as const;
export const PROBATE_FEES = { slug: 'probate-fees', name: 'California probate fees' } as const;
export const EXECUTOR_COMMISSION = {
  slug: 'executor-commission',
  name: 'New York executor commission',
} as const;
export const RMD = { slug: 'rmd', name: 'Required minimum distribution' } as const;

/** Every calculator, in display order (the registry in `index.ts` keeps the same order). */
export const CALCULATOR_NAMES = [
  ESTATE_TAX,
  INHERITANCE_TAX,
  PROBATE_FEES,
  EXECUTOR_COMMISSION,
  RMD,
] as const;

/** A calculator's name; a slug no calculator has (an old lead's, say) shows as it is. */
export const calculatorName = (slug: string): string =>
  CALCULATOR_NAMES.find((c) => c.slug === slug)?.name ?? slug;
