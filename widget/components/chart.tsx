import type { Slice } from '../forms/types.ts';
import { usd } from '../forms/words.ts';
import { t } from '../i18n/t.ts';

/**
 * Where the money goes, as one stacked bar in SVG (no chart library): the picture is
 * `aria-hidden` and the legend beside it carries every figure as text, so a screen reader
 * reads the amounts and a sighted visitor sees the proportions. The title and the slices' labels
 * are said in the page's language here (a label with a value in it comes already said).
 */
export function Chart({ slices, title }: { slices: Slice[]; title: string }) {
  const total = slices.reduce((s, x) => s + Math.max(0, x.amount), 0);
  if (total <= 0) return null;
  let x = 0;
  const parts = slices.map((s) => {
    const width = (Math.max(0, s.amount) / total) * 100;
    const part = { ...s, x, width };
    x += width;
    return part;
  });
  return (
    <figure class="chart">
      <figcaption>{t(title)}</figcaption>
      <svg viewBox="0 0 100 8" preserveAspectRatio="none" aria-hidden="true" focusable="false">
        {parts
          .filter((p) => p.width > 0)
          .map((p) => (
            <rect key={p.label} class={`tone-${p.tone}`} x={p.x} y="0" width={p.width} height="8" />
          ))}
      </svg>
      <ul class="legend">
        {parts.map((p) => (
          <li key={p.label} data-slice={p.tone}>
            <span class={`swatch tone-${p.tone}`} aria-hidden="true" />
            <span class="slice-label">{t(p.label)}</span>
            <span class="slice-amount">{usd(p.amount)}</span>
            <span class="slice-share">
              {p.width >= 0.5 || p.amount === 0 ? `${Math.round(p.width)}%` : '<1%'}
            </span>
          </li>
        ))}
      </ul>
    </figure>
  );
}
