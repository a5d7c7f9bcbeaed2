import { HEIGHTS, SPANISH_ROOM } from '../loader/heights.ts';

/**
 * The height to keep for a calculator's placeholder until loader.js (loaded with `async`) has run:
 * its tallest first height (phone widths), so the page's text below never moves when the widget
 * arrives. On wider screens a little space stays free under the widget until the visitor's first
 * result fills it. A Spanish widget (`lang` `es`) gets what the loader gives it: the English
 * height times SPANISH_ROOM, rounded up as the loader rounds. `auto` keeps the English room: only
 * the visitor's browser knows its language, and most are English.
 */
export function placeholderHeight(slug: string, lang?: string): number | undefined {
  const row = HEIGHTS[slug];
  if (!row) return undefined;
  const heights = row.match(/../g)?.map((pair) => Number.parseInt(pair, 36)) ?? [];
  const english = Math.max(...heights);
  return lang === 'es' ? Math.ceil(english * SPANISH_ROOM) : english;
}

/**
 * The options the Embed code page offers, one row each: the data attribute of loader.js it writes,
 * the values it takes (a list, or a pattern a value must match), and its label. A new option (a
 * language) is one more row; the page and the snippet follow the table.
 */
export interface SnippetOption {
  option: string;
  attribute: string;
  label: string;
  /** The choices, in order; the first is the default (written nowhere). */
  values?: readonly { value: string; label: string }[];
  /** For free values: what a value must match to be written. */
  pattern?: RegExp;
  help: string;
}

export const SNIPPET_OPTIONS: readonly SnippetOption[] = [
  {
    option: 'theme',
    attribute: 'data-theme',
    label: 'Theme',
    values: [
      { value: 'auto', label: 'Follow the visitor’s system' },
      { value: 'light', label: 'Light' },
      { value: 'dark', label: 'Dark' },
    ],
    help: 'Dark suits a site with a dark background.',
  },
  {
    option: 'accent',
    attribute: 'data-accent',
    label: 'Accent',
    pattern: /^#[0-9a-f]{6}$/i,
    help: 'Leave empty to use your firm’s accent from Settings → Firm.',
  },
  {
    option: 'radius',
    attribute: 'data-radius',
    label: 'Corner radius (px)',
    pattern: /^(?:[0-9]|1[0-9]|2[0-4])$/,
    help: '0 for square corners, up to 24.',
  },
  {
    option: 'font',
    attribute: 'data-font',
    label: 'Font',
    pattern: /^[\w\s"',-]{1,200}$/,
    help: 'A CSS font list your site already loads, e.g. Georgia, serif.',
  },
  {
    option: 'state',
    attribute: 'data-state',
    label: 'Pre-selected state',
    pattern: /^[A-Z]{2}$/,
    help: 'The state the form starts with.',
  },
  {
    option: 'lang',
    attribute: 'data-lang',
    label: 'Language',
    values: [
      { value: 'en', label: 'English' },
      { value: 'es', label: 'Spanish (español)' },
      { value: 'auto', label: 'The visitor’s browser language' },
    ],
    help: 'The browser’s language: Spanish for Spanish browsers, English for the rest.',
  },
];

export type SnippetOptions = Partial<Record<string, string>>;

/** The attributes the chosen options write, in table order; empty, default or malformed values write nothing. */
export function optionAttributes(options: SnippetOptions): string {
  return SNIPPET_OPTIONS.map((o) => {
    const value = options[o.option]?.trim() ?? '';
    const ok = o.values
      ? o.values.some((v) => v.value === value) && value !== o.values[0]?.value
      : o.pattern?.test(value);
    return value && ok ? ` ${o.attribute}="${value.replaceAll('"', '&quot;')}"` : '';
  }).join('');
}

/** The paste-ready embed code: one placeholder per calculator and the loader with the publishable key and the chosen options. */
export function snippetOf(
  embedUrl: string,
  key: string,
  calculators: string[],
  options: SnippetOptions = {},
) {
  const divs = calculators
    .map((slug) => {
      const height = placeholderHeight(slug, options.lang);
      return `<div data-svc-calculator="${slug}"${height ? ` style="min-height:${height}px"` : ''}></div>`;
    })
    .join('\n');
  return `${divs}\n<script src="${embedUrl}/loader.js" data-key="${key || 'SVC-…'}"${optionAttributes(options)} async></script>`;
}

/**
 * The same room as a stylesheet rule per calculator, for a site whose CSP has no `'unsafe-inline'`
 * for styles: the browser drops the snippet's `style` attribute there, and nothing else can keep
 * the room before loader.js has run. The loader's own heights and its collapse on a refusal are
 * set through the CSSOM, which such a policy allows (an inline style set so also beats this rule).
 */
export function stylesheetOf(calculators: string[], lang?: string): string {
  return calculators
    .map((slug) => [slug, placeholderHeight(slug, lang)] as const)
    .filter(([, height]) => height)
    .map(([slug, height]) => `[data-svc-calculator="${slug}"] { min-height: ${height}px; }`)
    .join('\n');
}
