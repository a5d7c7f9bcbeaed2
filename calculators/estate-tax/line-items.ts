import { formatUsd } from '../money.ts';
import type { LineItem } from '../types.ts';

export interface EstateFigures {
  stateName?: string;
  estateValue: number;
  stateTax: number;
  deduction: number;
  federalTaxableEstate: number;
  adjustedTaxableGifts: number;
  tentativeTax: number;
  exclusion: number;
  creditUsed: number;
  federalTax: number;
  totalTax: number;
}

/** The breakdown, in the order of the computation: state first (§2058), then federal. */
export function estateLineItems(f: EstateFigures): LineItem[] {
  const items: LineItem[] = [{ label: 'Taxable estate', amount: f.estateValue, kind: 'subtotal' }];
  if (f.stateName) items.push({ label: `${f.stateName} estate tax`, amount: f.stateTax, kind: 'tax' });
  if (f.deduction > 0) {
    items.push(
      { label: 'State death tax deduction (IRC §2058)', amount: -f.deduction, kind: 'deduction' },
      { label: 'Federal taxable estate', amount: f.federalTaxableEstate, kind: 'subtotal' },
    );
  }
  if (f.adjustedTaxableGifts > 0) {
    items.push({ label: 'Adjusted taxable gifts', amount: f.adjustedTaxableGifts, kind: 'income' });
  }
  items.push(
    { label: 'Tentative tax (IRC §2001(c))', amount: f.tentativeTax, kind: 'info' },
    {
      label: `Applicable credit (exclusion of ${formatUsd(f.exclusion, 'unless-whole')})`,
      amount: -f.creditUsed,
      kind: 'credit',
    },
    { label: 'Federal estate tax', amount: f.federalTax, kind: 'tax' },
    { label: 'Total estate tax', amount: f.totalTax, kind: 'total' },
  );
  return items;
}
