import { afterEach, describe, expect, it, vi } from 'vitest';
import { placeholderHeight, snippetOf } from '../portal/snippet.ts';
import { createFrame, reservedHeight } from './frame.ts';
import { HEIGHT_COUNT, HEIGHT_FROM, HEIGHT_STEP, HEIGHTS } from './heights.ts';

const height = (slug: string, i: number) => Number.parseInt(HEIGHTS[slug]!.slice(i * 2, i * 2 + 2), 36);

describe('reservedHeight: the first height, measured at build time, reserved before the iframe paints', () => {
  it('has a height for every width of every calculator in the table', () => {
    for (const row of Object.values(HEIGHTS))
      expect(row).toMatch(new RegExp(`^[0-9a-z]{${HEIGHT_COUNT * 2}}$`));
  });

  it.each([
    [200, 0],
    [HEIGHT_FROM, 0],
    [343, 0],
    [HEIGHT_FROM + HEIGHT_STEP, 1],
    [HEIGHT_FROM + 3 * HEIGHT_STEP - 1, 2],
    [728, HEIGHT_COUNT - 1],
    [1600, HEIGHT_COUNT - 1],
  ])('a %i px container takes the height measured at width #%i', (width, i) => {
    expect(reservedHeight('estate-tax', width)).toBe(height('estate-tax', i));
  });

  it('falls back to a default for a calculator it has no heights for', () => {
    expect(reservedHeight('no-such-calculator', 600)).toBe(560);
  });
});

// Spanish widgets are 3-21 % taller than the English table (MEASURE_LANG=es npm run measure:heights).
describe('the room a Spanish widget gets', () => {
  afterEach(() => vi.restoreAllMocks());
  const reserved = (params: Record<string, string>) =>
    createFrame(document, 'https://embed.example', 'inheritance-tax', 400, params).style.height;
  const english = height('inheritance-tax', 1);

  it('is the English height times 1.1 for data-lang="es" (and es-MX), as it is for English otherwise', () => {
    expect(reserved({ lang: 'es' })).toBe(`${Math.ceil(english * 1.1)}px`);
    expect(reserved({ lang: 'es-MX' })).toBe(`${Math.ceil(english * 1.1)}px`);
    for (const lang of ['en', 'est', 'auto']) expect(reserved({ lang })).toBe(`${english}px`);
    expect(reserved({})).toBe(`${english}px`);
  });

  it('follows the browser for auto', () => {
    vi.spyOn(navigator, 'language', 'get').mockReturnValue('es-US');
    expect(reserved({ lang: 'auto' })).toBe(`${Math.ceil(english * 1.1)}px`);
    expect(reserved({ lang: 'en' })).toBe(`${english}px`);
  });
});

// The portal's snippet reserves room from the same table, before loader.js has run.
describe('the embed snippet', () => {
  it('keeps each placeholder’s room (its calculator’s tallest first height) and loads the loader async', () => {
    const snippet = snippetOf('https://embed.svc.example', 'svc_pk_1', ['estate-tax', 'rmd']);
    expect(snippet).toBe(
      [
        `<div data-svc-calculator="estate-tax" style="min-height:${placeholderHeight('estate-tax')}px"></div>`,
        `<div data-svc-calculator="rmd" style="min-height:${placeholderHeight('rmd')}px"></div>`,
        '<script src="https://embed.svc.example/loader.js" data-key="svc_pk_1" async></script>',
      ].join('\n'),
    );
    expect(placeholderHeight('estate-tax')).toBeGreaterThan(700);
  });

  it('leaves a calculator without measured heights unstyled', () => {
    expect(snippetOf('https://e.example', 'k', ['new-one'])).toContain(
      '<div data-svc-calculator="new-one"></div>',
    );
  });
});

describe('the frame’s colour scheme', () => {
  // Where the frame's scheme and the widget page's differ, browsers paint the frame opaque: a black
  // box round a dark card on a light page. The frame takes the widget's own scheme.
  it.each([
    ['dark', 'dark'],
    ['light', 'light'],
    ['auto', 'light dark'],
    [undefined, 'light dark'],
    ['neon', 'light dark'],
  ])('theme %s → color-scheme %s', (theme, scheme) => {
    const frame = createFrame(document, 'https://embed.example', 'estate-tax', 640, { theme });
    expect(frame.style.colorScheme).toBe(scheme);
  });
});
