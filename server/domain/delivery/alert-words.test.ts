import { describe, expect, it } from 'vitest';
import { enquirySubject, roundMoney, telHref } from './alert-words.ts';

describe('alert mail words', () => {
  it.each([
    [8_500_000, '$8.5 million'],
    [18_500_000, '$18.5 million'],
    [1_250_000, '$1.25 million'],
    [425_000, '$425,000'],
    [2_000_000_000, '$2 billion'],
    [999.6, '$1,000'],
  ])('roundMoney(%d) → %s', (amount, words) => {
    expect(roundMoney(amount)).toBe(words);
  });

  it.each([
    ['+1 (212) 555-0143', 'tel:+12125550143'],
    [' 212.555.0143 ', 'tel:2125550143'],
    ['call me', undefined],
    ['javascript:alert(1)', undefined],
  ])('telHref(%j) → %s', (phone, href) => {
    expect(telHref(phone)).toBe(href);
  });

  it('names the enquiry, the visitor, the state and the figure it starts from', () => {
    expect(
      enquirySubject({ calculator: 'estate-tax', name: 'Priya Natarajan', state: 'NY', basis: 8_500_000 }),
    ).toBe('New estate-tax enquiry: Priya Natarajan, New York, estate of $8.5 million');
    expect(enquirySubject({ calculator: 'rmd', name: '', state: null, basis: 812_345.67 })).toBe(
      'New retirement-distribution enquiry: a visitor, balance of $812,346',
    );
  });
});
