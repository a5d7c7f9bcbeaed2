import { HEIGHT_COUNT, HEIGHT_FROM, HEIGHT_STEP, HEIGHTS } from './heights.ts';

/** Slugs are lower-case words joined by hyphens; anything else never reaches a URL. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const INITIAL_HEIGHT = 560;
const MIN_HEIGHT = 120;

/**
 * The widget iframe. Its URL hash carries the widget id, the host origin (so the widget knows
 * where to post) and the look the page asked for; never the token or the key. Styles are set
 * through the element's properties: no `style` attribute or `<style>` reaches the host page, so
 * a strict CSP holds.
 */
export function createFrame(
  doc: Document,
  embedOrigin: string,
  calculator: string,
  /** The container's width, to reserve the calculator's first height (see `reservedHeight`). */
  width: number,
  params: Record<string, string | undefined>,
): HTMLIFrameElement {
  const iframe = doc.createElement('iframe');
  const hash = new URLSearchParams();
  for (const [key, value] of Object.entries(params)) if (value) hash.set(key, value);
  iframe.src = `${embedOrigin}/w/${calculator}.html#${hash}`;
  // Until the page says its name in `svc-hello` (the loader carries no list of names).
  iframe.title = 'Calculator';
  // The widget needs only the host's origin, which it gets from the hash.
  iframe.referrerPolicy = 'no-referrer';
  const style = iframe.style;
  style.display = 'block';
  style.width = '100%';
  style.border = '0';
  // The frame's scheme is the widget's (light, dark, or the visitor's for `auto`): where the two
  // differ, browsers paint the frame's canvas opaque, a black box round a dark card on a light page
  // (CSS Color Adjustment, `color-scheme` on embedded documents).
  const theme = params.theme;
  style.colorScheme = theme === 'dark' || theme === 'light' ? theme : 'light dark';
  // The table is measured in English: a Spanish widget's room is a tenth more (SPANISH_ROOM in
  // heights.ts, written here as its value: the bundler keeps an imported constant as a variable,
  // 4 bytes of loader; portal/snippet.test.ts holds the two equal).
  resizeFrame(iframe, reservedHeight(calculator, width) * (isSpanish(params.lang) ? 1.1 : 1));
  return iframe;
}

/**
 * The height the calculator will have when it appears at this container width, from the table
 * measured at build time (the widest measured width not above this one), so the host page's
 * content below the widget does not move when it arrives (no layout shift).
 */
export function reservedHeight(calculator: string, width: number): number {
  const at = 2 * Math.min(HEIGHT_COUNT - 1, Math.max(0, ((width - HEIGHT_FROM) / HEIGHT_STEP) | 0));
  return parseInt(HEIGHTS[calculator]?.slice(at, at + 2) ?? '', 36) || INITIAL_HEIGHT;
}

export function resizeFrame(iframe: HTMLIFrameElement, height: number): void {
  iframe.style.height = `${Math.max(MIN_HEIGHT, Math.ceil(height))}px`;
}

/**
 * A widget of this `lang` is in Spanish: `es`, or `auto` in a Spanish browser (as the widget itself
 * decides, widget/boot.tsx).
 */
const isSpanish = (lang = ''): boolean => /^es\b/i.test(lang === 'auto' ? navigator.language : lang);

/** What a visitor sees in place of a widget that cannot run here: polite, no jargon, in its language. */
export function createFallback(doc: Document, lang?: string): HTMLElement {
  const p = doc.createElement('p');
  p.dataset.svcFallback = '';
  if (isSpanish(lang)) {
    p.lang = 'es';
    p.textContent = 'Esta calculadora no está disponible aquí por ahora.';
  } else p.textContent = 'This calculator isn’t available here right now.';
  p.style.padding = '1em';
  return p;
}
