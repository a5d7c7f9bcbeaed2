import { describe, expect, it } from 'vitest';
import { US_STATES } from './limits.ts';
import { CALCULATOR_NAMES } from './names.ts';
import { changesNewestFirst, RULE_CHANGES } from './rules-changelog.ts';

describe('the rules changelog', () => {
  it('gives every change a unique, well-formed, stable id and a day', () => {
    const ids = RULE_CHANGES.map((c) => c.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const c of RULE_CHANGES) {
      expect(c.id).toMatch(/^[a-z-]+\/\d{4}-\d{2}-\d{2}\/[a-z0-9-]+$/);
      expect(c.id.split('/')[1]).toBe(c.date);
      expect(c.summary.length).toBeGreaterThan(20);
    }
  });

  it('names only calculators and states that exist', () => {
    const slugs = CALCULATOR_NAMES.map((c) => c.slug as string);
    for (const c of RULE_CHANGES) {
      for (const slug of c.calculators) expect(slugs).toContain(slug);
      for (const state of c.states) expect(US_STATES as readonly string[]).toContain(state);
    }
  });

  it('lists newest first, ties in the order written', () => {
    const ordered = changesNewestFirst([
      { ...RULE_CHANGES[0]!, id: 'a', date: '2026-01-01' },
      { ...RULE_CHANGES[0]!, id: 'b', date: '2026-03-01' },
      { ...RULE_CHANGES[0]!, id: 'c', date: '2026-03-01' },
    ]);
    expect(ordered.map((c) => c.id)).toEqual(['b', 'c', 'a']);
  });

  it('records this release: Washington kept at $3,000,000 for 2027', () => {
    expect(changesNewestFirst()[0]).toMatchObject({
      id: 'estate-tax/2026-11-28/wa-2027-exclusion',
      states: ['WA'],
      calculators: ['estate-tax'],
    });
  });
});
