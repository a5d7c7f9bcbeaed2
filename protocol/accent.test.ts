import { describe, expect, it } from 'vitest';
import { contrastOnWhite, contrastRatio, onAccent } from './accent.ts';

describe('contrastRatio', () => {
  // Reference ratios from the WCAG 2 formula (the ones contrast checkers print).
  it.each([
    ['#000000', '#ffffff', 21],
    ['#ffffff', '#ffffff', 1],
    ['#777777', '#ffffff', 4.48],
    ['#1f4e79', '#ffffff', 8.66],
    ['#17a', '#fff', 4.95],
  ])('%s on %s → %d', (a, b, ratio) => {
    expect(contrastRatio(a, b)).toBeCloseTo(ratio, 2);
    expect(contrastRatio(b, a)).toBe(contrastRatio(a, b));
  });

  it('reads three-digit colours as their six-digit form, and white paper as #ffffff', () => {
    expect(contrastRatio('#17a', '#000')).toBe(contrastRatio('#1177aa', '#000000'));
    expect(contrastOnWhite('#1f4e79')).toBe(contrastRatio('#1f4e79', '#ffffff'));
  });
});

describe('onAccent', () => {
  it.each([
    ['#1f4e79', '#ffffff'],
    ['#000000', '#ffffff'],
    ['#ffcc00', '#10151c'],
    ['#ffffff', '#10151c'],
  ])('text on %s is %s', (accent, text) => {
    expect(onAccent(accent)).toBe(text);
  });
});
