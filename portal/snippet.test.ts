import { describe, expect, it } from 'vitest';
import { createFrame } from '../loader/frame.ts';
import { HEIGHTS } from '../loader/heights.ts';
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
    [{ lang: 'es' }, ' data-lang="es"'],
    [{ lang: 'auto' }, ' data-lang="auto"'],
    [{ lang: 'en' }, ''],
    [{ lang: 'fr' }, ''],
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

  it('reserves for a Spanish widget what the loader reserves for it (the English room times 1.1), in the snippet and the CSS', () => {
    for (const slug of Object.keys(HEIGHTS)) {
      // The loader's room on a phone, where the first height is the tallest the snippet keeps.
      const loaderRoom = (lang: string) =>
        createFrame(document, 'https://e.example', slug, 320, { lang }).style.height;
      expect(`${placeholderHeight(slug)}px`).toBe(loaderRoom('en'));
      expect(`${placeholderHeight(slug, 'es')}px`).toBe(loaderRoom('es'));
      expect(placeholderHeight(slug, 'es')!).toBeGreaterThan(placeholderHeight(slug)!);
    }
    expect(placeholderHeight('estate-tax', 'es')).toBe(926); // 841 px in English
    const spanish = snippetOf('https://e.example', 'k', ['estate-tax', 'rmd'], { lang: 'es' });
    expect(spanish).toContain('<div data-svc-calculator="estate-tax" style="min-height:926px"></div>');
    expect(spanish).toContain(`style="min-height:${placeholderHeight('rmd', 'es')}px"`);
    expect(spanish).toContain(' data-lang="es" async></script>');
    expect(stylesheetOf(['estate-tax'], 'es')).toBe(
      '[data-svc-calculator="estate-tax"] { min-height: 926px; }',
    );
    // The browser's language is known only in the browser: the English room, as most visitors are.
    expect(snippetOf('https://e.example', 'k', ['estate-tax'], { lang: 'auto' })).toContain(
      'min-height:841px',
    );
  });
});
