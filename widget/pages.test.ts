import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { calculators } from '../calculators/index.ts';

const DIR = join(import.meta.dirname, 'w');

it('has one page per calculator, each naming its own calculator and nothing inline', () => {
  const pages = readdirSync(DIR).filter((f) => f.endsWith('.html'));
  expect(pages.sort()).toEqual(calculators.map((c) => `${c.slug}.html`).sort());
  for (const page of pages) {
    const html = readFileSync(join(DIR, page), 'utf8');
    expect(html).toContain(`data-calculator="${page.replace('.html', '')}"`);
    expect(html).toMatch(/<script type="module" src="..\/main.tsx"><\/script>/);
    expect(html).not.toMatch(/<style|\sstyle=|<script>/);
  }
});
