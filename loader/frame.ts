/** Slugs are lower-case words joined by hyphens; anything else never reaches a URL. */
export const SLUG = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const INITIAL_HEIGHT = 520;
const MIN_HEIGHT = 120;

/**
 * The widget iframe. Its URL carries the widget id and the host origin (so the widget knows
 * where to post), never the token or the license key. Styles are set through the element's
 * properties: no `style` attribute or `<style>` reaches the host page, so a strict CSP holds.
 */
export function createFrame(
  doc: Document,
  opts: { embedOrigin: string; calculator: string; widgetId: string; hostOrigin: string },
): HTMLIFrameElement {
  const iframe = doc.createElement('iframe');
  const hash = new URLSearchParams({ widgetId: opts.widgetId, host: opts.hostOrigin });
  iframe.src = `${opts.embedOrigin}/w/${opts.calculator}.html#${hash}`;
  iframe.title = `${opts.calculator.replace(/-/g, ' ')} calculator`;
  iframe.loading = 'lazy';
  // The widget needs only the host's origin, which it gets from the hash.
  iframe.referrerPolicy = 'no-referrer';
  iframe.style.display = 'block';
  iframe.style.width = '100%';
  iframe.style.border = '0';
  iframe.style.colorScheme = 'normal';
  iframe.style.height = `${INITIAL_HEIGHT}px`;
  return iframe;
}

export function resizeFrame(iframe: HTMLIFrameElement, height: number): void {
  iframe.style.height = `${Math.max(MIN_HEIGHT, Math.ceil(height))}px`;
}
