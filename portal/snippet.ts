import { HEIGHTS } from '../loader/heights.ts';

/**
 * The height to keep for a calculator's placeholder until loader.js (loaded with `async`) has run:
 * its tallest first height (phone widths), so the page's text below never moves when the widget
 * arrives. On wider screens a little space stays free under the widget until the visitor's first
 * result fills it.
 */
export function placeholderHeight(slug: string): number | undefined {
  const row = HEIGHTS[slug];
  if (!row) return undefined;
  const heights = row.match(/../g)?.map((pair) => Number.parseInt(pair, 36)) ?? [];
  return Math.max(...heights);
}

/** The paste-ready embed code: one placeholder per calculator and the loader with the publishable key. */
export function snippetOf(embedUrl: string, key: string, calculators: string[]) {
  const divs = calculators
    .map((slug) => {
      const height = placeholderHeight(slug);
      return `<div data-svc-calculator="${slug}"${height ? ` style="min-height:${height}px"` : ''}></div>`;
    })
    .join('\n');
  return `${divs}\n<script src="${embedUrl}/loader.js" data-key="${key || 'SVC-…'}" async></script>`;
}
