import { describe, expect, it } from 'vitest';
import { optionAttributes, placeholderHeight, SNIPPET_OPTIONS, snippetOf, stylesheetOf } from './snippet.ts';

describe('the snippet the Embed code page writes', () => {
  it.each([
    [{ theme: 'dark' }, ' data-theme="dark"'],
    [{ theme: 'light' }, ' data-theme="light"'],
    [{ theme: 'auto' }, ''], // the default is written nowhere
    [{ theme: 'neon' }, ''],
    [{ accent: '#7A1F3D' }, ' data-accent="#7A1F3D"'],
    [{ accent: 'red' }, ''],
    [{ radius: '0' }, ' data-radius="0"'],
    [{ radius: '24' }, ' data-radius="24"'],
    [{ radius: '25' }, ''],
    [
      { font: 'Georgia, "Times New Roman", serif' },
      ' data-font="Georgia, &quot;Times New Roman&quot;, serif"',
    ],
    [{ font: 'x;}body{display:none' }, ''],
    [{ state: 'NY' }, ' data-state="NY"'],
    [{ state: 'new york' }, ''],
  ])('%j → %s', (options, attributes) => {
    expect(optionAttributes(options)).toBe(attributes);
  });

  it('puts every chosen option on loader.js in the table’s order, and keeps each placeholder’s room', () => {
    const snippet = snippetOf('https://embed.svc.example', 'svc_pk_1', ['estate-tax', 'rmd'], {
      state: 'NY',
      theme: 'dark',
      radius: '8',
    });
    expect(snippet).toMatch(/^<div data-svc-calculator="estate-tax" style="min-height:\d+px"><\/div>\n/);
    expect(snippet).toContain('<div data-svc-calculator="rmd" style="min-height:');
    expect(snippet.split('\n').at(-1)).toBe(
      '<script src="https://embed.svc.example/loader.js" data-key="svc_pk_1" data-theme="dark" data-radius="8" data-state="NY" async></script>',
    );
  });

  it('names each option’s data attribute once', () => {
    const attributes = SNIPPET_OPTIONS.map((o) => o.attribute);
    expect(new Set(attributes).size).toBe(attributes.length);
    for (const a of attributes) expect(a).toMatch(/^data-[a-z]+$/);
  });

  it('gives a strict-CSP site the same room as stylesheet rules, one per calculator', () => {
    expect(stylesheetOf(['estate-tax', 'rmd', 'no-such'])).toBe(
      `[data-svc-calculator="estate-tax"] { min-height: ${placeholderHeight('estate-tax')}px; }\n` +
        `[data-svc-calculator="rmd"] { min-height: ${placeholderHeight('rmd')}px; }`,
    );
    expect(snippetOf('https://e.example', 'k', ['estate-tax'])).toContain(
      `style="min-height:${placeholderHeight('estate-tax')}px"`,
    );
  });
});
