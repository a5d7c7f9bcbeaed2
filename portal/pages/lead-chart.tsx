import type { LeadChart as LeadChartData } from '../../server/routes/portal/types.ts';
import { TableWrap } from '../components/ui.tsx';
import { calculatorName, formatDate, plural } from '../format.ts';

/** One colour per calculator, in the order of their share (each at least 3:1 against white). */
const COLOURS = ['#4f46e5', '#0e7c7b', '#c4320a', '#a11043', '#475467'];
const HEIGHT = 180;
const TOP = 20;
/** Bars start after the gridline labels (percent of the width). */
const LEFT = 7;

const short = (day: string) =>
  new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
    new Date(`${day}T00:00:00Z`),
  );

/** A round step for 3–4 gridlines above the tallest bar. */
function gridStep(max: number): number {
  const raw = Math.max(1, max / 4);
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return ([1, 2, 5, 10].map((m) => m * magnitude).find((s) => s >= raw) ?? raw) as number;
}

/**
 * Leads per week and calculator as stacked bars in plain SVG (no chart library): a title and a
 * description for screen readers, a legend, and the same figures as a table under "Show as table".
 */
export function LeadChart(props: { data: LeadChartData }) {
  const { weeks, calculators } = props.data;
  const total = weeks.reduce((n, w) => n + w.total, 0);
  const step = gridStep(Math.max(1, ...weeks.map((w) => w.total)));
  const top = Math.max(step, Math.ceil(Math.max(1, ...weeks.map((w) => w.total)) / step) * step);
  const y = (n: number) => TOP + HEIGHT - (n / top) * HEIGHT;
  const slot = (100 - LEFT) / weeks.length;
  const colour = (slug: string) => COLOURS[calculators.indexOf(slug) % COLOURS.length]!;
  const busiest = weeks.reduce((a, b) => (b.total > a.total ? b : a), weeks[0]!);
  const summary =
    total === 0
      ? `No ${props.data.filtered ? 'matching ' : ''}leads between ${formatDate(props.data.from)} and ${formatDate(props.data.to)}.`
      : `${plural(total, 'lead')} between ${formatDate(props.data.from)} and ${formatDate(props.data.to)}: ${calculators
          .map((c) => `${calculatorName(c)} ${weeks.reduce((n, w) => n + (w.counts[c] ?? 0), 0)}`)
          .join(', ')}. Busiest week: from ${formatDate(busiest.from)}, ${plural(busiest.total, 'lead')}.`;
  const gridlines = Array.from({ length: Math.round(top / step) + 1 }, (_, i) => i * step);
  return (
    <div class="chart">
      <svg
        class="chart-svg"
        width="100%"
        height={TOP + HEIGHT + 28}
        role="img"
        aria-labelledby="lead-chart-title lead-chart-desc"
      >
        <title id="lead-chart-title">
          {props.data.filtered
            ? `Leads per week by calculator, filtered, ${formatDate(props.data.from)} – ${formatDate(props.data.to)}`
            : 'Leads per week by calculator, last 90 days'}
        </title>
        <desc id="lead-chart-desc">{summary}</desc>
        {gridlines.map((n) => (
          <g key={n}>
            <line class="chart-grid" x1="0" x2="100%" y1={y(n)} y2={y(n)} />
            <text class="chart-axis" x="0" y={y(n) - 4}>
              {n}
            </text>
          </g>
        ))}
        {weeks.map((week, i) => {
          let base = 0;
          return (
            <g key={week.from}>
              {calculators
                .filter((c) => week.counts[c])
                .map((c) => {
                  const n = week.counts[c]!;
                  const rect = (
                    <rect
                      key={c}
                      x={`${LEFT + i * slot + slot * 0.18}%`}
                      width={`${slot * 0.64}%`}
                      y={y(base + n)}
                      height={Math.max(0, y(base) - y(base + n))}
                      fill={colour(c)}
                    />
                  );
                  base += n;
                  return rect;
                })}
              {i % 2 === 0 ? (
                <text
                  class={`chart-axis${i % 4 === 0 ? '' : ' chart-tick-minor'}`}
                  x={`${LEFT + i * slot + slot / 2}%`}
                  y={TOP + HEIGHT + 20}
                  text-anchor="middle"
                >
                  {short(week.from)}
                </text>
              ) : null}
            </g>
          );
        })}
      </svg>
      {calculators.length ? (
        <ul class="chart-legend" aria-label="Calculators">
          {calculators.map((c) => (
            <li key={c}>
              <svg class="chart-swatch" width="12" height="12" aria-hidden="true">
                <rect width="12" height="12" rx="3" fill={colour(c)} />
              </svg>
              {calculatorName(c)}
            </li>
          ))}
        </ul>
      ) : null}
      <details class="chart-table">
        <summary>Show as table</summary>
        <TableWrap label="Leads per week by calculator, as a table">
          <table class="table">
            <caption class="visually-hidden">Leads per week by calculator</caption>
            <thead>
              <tr>
                <th scope="col">Week</th>
                {calculators.map((c) => (
                  <th scope="col" class="num" key={c}>
                    {calculatorName(c)}
                  </th>
                ))}
                <th scope="col" class="num">
                  Total
                </th>
              </tr>
            </thead>
            <tbody>
              {weeks.map((w) => (
                <tr key={w.from}>
                  <th scope="row" class="nowrap">
                    {short(w.from)} – {short(w.to)}
                  </th>
                  {calculators.map((c) => (
                    <td class="num" key={c}>
                      {w.counts[c] ?? 0}
                    </td>
                  ))}
                  <td class="num">{w.total}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      </details>
    </div>
  );
}
