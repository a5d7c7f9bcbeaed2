/** More reports than this within RESIZE_WINDOW_MS, or a height above MAX_HEIGHT, is a loop. */
export const RESIZE_BURST = 24;
export const RESIZE_WINDOW_MS = 2_000;
export const MAX_HEIGHT = 20_000;

/**
 * Calls `report` with the content's height whenever it changes. Measures the body, not the
 * document: the document is at least as tall as the iframe, so it could grow but never shrink.
 * A guard stops a resize loop (the host's CSS making the height oscillate, or runaway growth):
 * reports stop and `onLoop` runs once.
 */
export function watchHeight(
  body: HTMLElement,
  report: (height: number) => void,
  onLoop?: () => void,
): () => void {
  let last = -1;
  let count = 0;
  let windowStart = 0;
  let stopped = false;
  const measure = () => {
    if (stopped) return; // a notification already queued when the guard tripped
    const style = getComputedStyle(body);
    const margins = (Number.parseFloat(style.marginTop) || 0) + (Number.parseFloat(style.marginBottom) || 0);
    const height = Math.ceil(body.getBoundingClientRect().height + margins);
    if (height === last) return;
    last = height;
    const now = Date.now();
    if (now - windowStart > RESIZE_WINDOW_MS) {
      windowStart = now;
      count = 0;
    }
    if (++count > RESIZE_BURST || height > MAX_HEIGHT) {
      stopped = true;
      observer.disconnect();
      onLoop?.();
      return;
    }
    report(height);
  };
  // The observer's first call comes with the first layout: measuring here would force one early.
  const observer = new ResizeObserver(measure);
  observer.observe(body);
  return () => observer.disconnect();
}
