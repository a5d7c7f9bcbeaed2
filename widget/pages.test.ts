import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { calculators } from '../calculators/index.ts';

const DIR = join(import.meta.dirname, 'w');

it('has one page per calculator, each with its own entry, its name as title and nothing inline', () => {
  const pages = readdirSync(DIR).filter((f) => f.endsWith('.html'));
  expect(pages.sort()).toEqual(calculators.map((c) => `${c.slug}.html`).sort());
  for (const { slug, name } of calculators) {
    const html = readFileSync(join(DIR, `${slug}.html`), 'utf8');
    expect(html).toContain(`data-calculator="${slug}"`);
    expect(html).toContain(`<title>${name} calculator</title>`);
    expect(html).toMatch(new RegExp(`<script type="module" src="../entries/${slug}.ts"></script>`));
    expect(html).not.toMatch(/<style|\sstyle=|<script>/);
  }
});
