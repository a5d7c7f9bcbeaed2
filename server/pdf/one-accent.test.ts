import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { DEFAULT_ACCENT } from '../../protocol/accent.ts';
import { COLOR } from './theme.ts';

describe('one default accent', () => {
  const read = (path: string) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

  it('is what the widget draws, the PDF prints and the portal shows and previews', () => {
    expect(DEFAULT_ACCENT).toBe('#1f4e79');
    expect(read('widget/styles.css')).toMatch(new RegExp(`--accent: ${DEFAULT_ACCENT};`));
    expect(COLOR.accent).toBe(DEFAULT_ACCENT);
    const settings = read('portal/pages/settings-firm.tsx');
    expect(settings).toContain("import { DEFAULT_ACCENT } from '../../protocol/accent.ts'");
    // No second default written as a literal colour anywhere in the firm's settings.
    expect(settings.match(/#[0-9a-f]{6}\b/gi) ?? []).toEqual([]);
  });
});
