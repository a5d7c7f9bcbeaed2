/**
 * Calls `report` with the content's height whenever it changes. Measures the body, not the
 * document: the document is at least as tall as the iframe, so it could grow but never shrink.
 */
export function watchHeight(body: HTMLElement, report: (height: number) => void): () => void {
  let last = -1;
  const measure = () => {
    const style = getComputedStyle(body);
    const margins = (Number.parseFloat(style.marginTop) || 0) + (Number.parseFloat(style.marginBottom) || 0);
    const height = Math.ceil(body.getBoundingClientRect().height + margins);
    if (height === last) return;
    last = height;
    report(height);
  };
  const observer = new ResizeObserver(measure);
  observer.observe(body);
  measure();
  return () => observer.disconnect();
}
