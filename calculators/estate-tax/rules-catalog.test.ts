import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { RULE_SOURCES } from './rule-sources.ts';
import { rulesCatalog } from './rules-catalog.ts';
import { rulesMarkdown } from './rules-markdown.ts';

const catalog = rulesCatalog();
const byId = new Map(catalog.ruleSets.map((r) => [r.id, r]));
const figure = (id: string, key: string) => byId.get(id)?.figures.find((f) => f.key === key);

describe('rules and sources', () => {
  it('gives every figure of every rule set a status, a source and the day it was checked', () => {
    for (const set of catalog.ruleSets) {
      expect(set.figures.length, set.id).toBeGreaterThan(0);
      for (const f of set.figures) {
        expect(f.sources.length, `${set.id} ${f.key}`).toBeGreaterThan(0);
        for (const s of f.sources) expect(s.checked).toMatch(/^2026-11(-\d{2})?$/);
        if (f.status !== 'primary') expect(f.note, `${set.id} ${f.key} says why`).toBeTruthy();
        // A primary status needs a primary source among those listed.
        if (f.status === 'primary') expect(f.sources.some((s) => s.kind === 'primary')).toBe(true);
      }
    }
  });

  it('files no source under a figure the tables do not have (a typo would leave a figure unsourced)', () => {
    for (const [id, figures] of Object.entries(RULE_SOURCES)) {
      for (const key of Object.keys(figures)) expect(figure(id, key), `${id} ${key}`).toBeDefined();
    }
  });

  it.each([
    ['WA-2026-01-01', 'exemption', '$3,076,000', 'primary'],
    ['WA-2026-07-01', 'exemption', '$3,000,000', 'primary'],
    ['WA-2026-07-01', 'rows', '10 % to 20 %, 8 brackets', 'secondary'],
    ['DC-2026-01-01', 'exemption', '$4,988,400', 'secondary'],
    ['ME-2026-01-01', 'exemption', '$7,160,000', 'secondary'],
    ['NY-2026-01-01', 'exemption', '$7,350,000', 'secondary'],
    ['RI-2026-01-01', 'exemption', '$1,838,056', 'secondary'],
    ['RI-2026-01-01', 'credit', '$87,940', 'secondary'],
    ['HI-2026-01-01', 'exemption', '$5,490,000', 'primary'],
    ['US-2026-01-01', 'amount', '$15,000,000', 'primary'],
    // Computed from the rule, never typed: T(15,000,000) = 345,800 + 40 % × 14,000,000.
    ['US-2026-01-01', 'credit', '$5,945,800', 'primary'],
    ['CT-2026-01-01', 'exemption', '$15,000,000', 'primary'],
    ['WA-2027-01-01', 'exemption', '$3,000,000', 'secondary'],
  ])('%s %s is %s (%s)', (id, key, value, status) => {
    expect(figure(id, key)).toMatchObject({ value, status });
  });

  it('marks Washington’s rules from 1 July 2026 as confirmed by secondary sources until a primary one is found', () => {
    expect(byId.get('WA-2026-07-01')).toMatchObject({
      covers: 'Deaths from 1 July to 31 December 2026',
      status: 'secondary',
    });
    expect(byId.get('WA-2026-01-01')).toMatchObject({
      covers: 'Deaths from 1 January to 30 June 2026',
      to: '2026-06-30',
    });
  });

  it('lists every unpublished 2027 amount as missing, with what a 2027 death uses', () => {
    const missing = catalog.ruleSets.filter((r) => r.status === 'missing').map((r) => r.id);
    expect(missing.sort()).toEqual([
      'CT-2027',
      'DC-2027',
      'ME-2027',
      'NY-2027',
      'RI-2027',
      'US-2027',
      'US-2027-gift',
    ]);
    expect(figure('RI-2027', 'pending')?.value).toBe(
      'Not published; deaths in 2027 use $1,838,056 and $87,940 (2026)',
    );
    expect(figure('US-2027', 'pending')?.value).toBe('Not published; deaths in 2027 use $15,000,000 (2026)');
    expect(figure('US-2027-gift', 'pending')?.value).toBe('Not published; no calculator uses it');
  });

  it('says why Washington keeps $3,000,000 in 2027', () => {
    expect(byId.get('WA-2027-01-01')).toMatchObject({ covers: 'Deaths on or after 1 January 2027' });
    expect(figure('WA-2027-01-01', 'exemption')?.note).toMatch(/no longer publishes|stopped publishing/);
  });

  it('records the second check of every 2027 figure on 28 November 2026', () => {
    for (const set of catalog.ruleSets.filter((r) => r.status === 'missing'))
      for (const f of set.figures)
        expect(
          f.sources.some((s) => s.checked === '2026-11-28'),
          set.id,
        ).toBe(true);
  });

  it('is in docs/rules-and-sources.md as a table (run `npm run docs` after a change)', () => {
    const doc = readFileSync(new URL('../../docs/rules-and-sources.md', import.meta.url), 'utf8');
    expect(doc).toBe(rulesMarkdown(catalog));
  });
});
