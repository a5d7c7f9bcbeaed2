import { defang } from '../../protocol/defang.ts';
import type { PortalFunnel } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { Card, ErrorNote, TableWrap } from '../components/ui.tsx';
import { useResource } from '../use-resource.ts';

type Stages = PortalFunnel['current']['totals'];

const STEPS: {
  key: 'views' | 'calculations' | 'leads' | 'contacted' | 'converted';
  label: string;
  hint: string;
}[] = [
  { key: 'views', label: 'Views', hint: 'calculators shown to a visitor' },
  { key: 'calculations', label: 'Calculations', hint: 'results computed' },
  { key: 'leads', label: 'Leads', hint: 'asked to be contacted' },
  { key: 'contacted', label: 'Contacted', hint: 'of those leads, worked by you' },
  { key: 'converted', label: 'Clients', hint: 'of those leads, converted' },
];

const n = (value: number) => value.toLocaleString('en-US');
const count = (value: number, word: string) => `${n(value)} ${word}${value === 1 ? '' : 's'}`;
const pct = (rate: number | null) =>
  rate === null
    ? '—'
    : `${(rate * 100).toLocaleString('en-US', { maximumFractionDigits: rate < 0.1 ? 1 : 0 })}%`;
const DAY = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
const day = (iso: string) => DAY.format(new Date(`${iso}T00:00:00Z`));
/** What the step is as a share of the one before it (views: none). */
const shareOf = (s: Stages, i: number) => {
  if (i === 0) return null;
  const before = s[STEPS[i - 1]!.key];
  return before > 0 ? s[STEPS[i]!.key] / before : null;
};

function Change(props: { now: number; before: number }) {
  const diff = props.now - props.before;
  if (props.now === 0 && props.before === 0) return <span class="muted">none in the 30 days before</span>;
  const words = diff === 0 ? 'same as' : `${diff > 0 ? '+' : '−'}${n(Math.abs(diff))} vs`;
  return (
    <span class={diff > 0 ? 'delta delta-up' : diff < 0 ? 'delta delta-down' : 'muted'}>
      {words} the 30 days before ({n(props.before)})
    </span>
  );
}

/**
 * A page as path and host (muted). The host is the embed session's own origin (checked by the
 * server); the path is what the visitor's browser reported, so it is defanged.
 */
function PageName(props: { page: string }) {
  if (props.page === '') return <span class="muted">No page reported</span>;
  if (!props.page.startsWith('http')) return <span>{props.page}</span>;
  const url = new URL(props.page);
  return (
    <span class="cell-main funnel-page">
      <span>{defang(url.pathname === '/' ? '/ (home)' : url.pathname)}</span>
      <span class="cell-sub">{url.host}</span>
    </span>
  );
}

type Row = Stages & { key: string; name: preact.ComponentChildren };

function FunnelTable(props: { label: string; first: string; rows: Row[] }) {
  return (
    <TableWrap label={props.label}>
      <table class="table table-stack funnel-table">
        <thead>
          <tr>
            <th scope="col">{props.first}</th>
            <th scope="col" class="num">
              Views
            </th>
            <th scope="col" class="num">
              Calculations
            </th>
            <th scope="col" class="num">
              Leads
            </th>
            <th scope="col" class="num">
              Clients
            </th>
            <th scope="col" class="num">
              View → lead
            </th>
            <th scope="col" class="num">
              Lead → client
            </th>
          </tr>
        </thead>
        <tbody>
          {props.rows.map((r) => (
            <tr key={r.key}>
              <td>{r.name}</td>
              <td class="num" data-label="Views">
                {n(r.views)}
              </td>
              <td class="num" data-label="Calculations">
                {n(r.calculations)}
              </td>
              <td class="num" data-label="Leads">
                {n(r.leads)}
              </td>
              <td class="num" data-label="Clients">
                {n(r.converted)}
              </td>
              <td class="num" data-label="View → lead">
                {pct(r.views > 0 ? r.leads / r.views : null)}
              </td>
              <td class="num" data-label="Lead → client">
                {pct(r.conversionRate)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

/**
 * One series of the 30 days as bars on its own scale (leads are a fraction of a percent of views:
 * on one shared scale their bars would not show), with its total and busiest day in words.
 */
function Series(props: { days: PortalFunnel['days']; step: 'views' | 'leads'; label: string }) {
  const values = props.days.map((d) => d[props.step]);
  const max = Math.max(1, ...values);
  const total = values.reduce((a, b) => a + b, 0);
  const busiest = props.days[values.indexOf(Math.max(...values))];
  const words =
    total === 0
      ? `No ${props.label.toLowerCase()} in these 30 days`
      : `${n(total)} ${props.label.toLowerCase()}; busiest day ${busiest ? day(busiest.day) : ''} with ${n(max)}`;
  return (
    <div class="funnel-series">
      <p class="funnel-series-label">
        <span>
          <i class={`key key-${props.step}`} /> {props.label} per day
        </span>
        <span class="muted num">up to {n(max)}</span>
      </p>
      <div
        class={`funnel-bars funnel-bars-${props.step}`}
        role="img"
        aria-label={`${props.label} per day, UTC: ${words}`}
      >
        {props.days.map((d) => (
          <div
            class="funnel-bar"
            key={d.day}
            title={`${day(d.day)} (UTC): ${n(d[props.step])} ${props.label.toLowerCase()}`}
          >
            <span class={`funnel-bar-${props.step}`} style={{ height: `${(d[props.step] / max) * 100}%` }} />
          </div>
        ))}
      </div>
    </div>
  );
}

/** Daily views and leads of the 30 days, each on its own scale, days labelled in UTC. */
function Days(props: { days: PortalFunnel['days'] }) {
  const first = props.days[0];
  const last = props.days[props.days.length - 1];
  return (
    <figure class="funnel-days">
      <Series days={props.days} step="views" label="Views" />
      <Series days={props.days} step="leads" label="Leads" />
      <figcaption class="funnel-axis muted">
        <span>{first ? day(first.day) : ''}</span>
        <span>days in UTC</span>
        <span>{last ? day(last.day) : ''}</span>
      </figcaption>
    </figure>
  );
}

const TOP_PAGES = 10;

/** Overview's funnel: from a calculator shown to a client won, the last 30 UTC days against the 30 before. */
export function FunnelCard() {
  const { data, error } = useResource(() => api.get('funnel'));
  if (error) return <ErrorNote error={error} />;
  if (!data) return null;
  const { current, previous } = data;
  const t = current.totals;
  const pages = current.byPage;
  return (
    <Card
      title="From view to client"
      id="funnel"
      description={`Last 30 days, ${day(current.from)} – ${day(current.to)} (UTC days), against ${day(previous.from)} – ${day(previous.to)}`}
    >
      <ol class="funnel-steps">
        {STEPS.map((step, i) => {
          const share = shareOf(t, i);
          return (
            <li class="funnel-step" key={step.key}>
              <p class="stat-label">{step.label}</p>
              <p class="funnel-value num">{n(t[step.key])}</p>
              <p class="funnel-share muted">
                {share === null ? step.hint : `${pct(share)} of ${STEPS[i - 1]!.label.toLowerCase()}`}
              </p>
              <Change now={t[step.key]} before={previous.totals[step.key]} />
            </li>
          );
        })}
      </ol>
      <p class="muted funnel-note">
        {t.lost > 0 ? `${count(t.lost, 'lead')} marked lost. ` : ''}
        {t.heldLeads > 0 ? `${n(t.heldLeads)} held for spam signals, not counted as leads. ` : ''}
        {current.test.views + current.test.calculations + current.test.leads > 0
          ? `Test traffic apart: ${count(current.test.views, 'view')}, ${count(current.test.calculations, 'calculation')}, ${count(current.test.leads, 'lead')}. `
          : ''}
        Counts come from the widgets themselves and are not proof against abuse.
      </p>
      <Days days={data.days} />
      {current.byCalculator.length === 0 ? null : (
        <>
          <h3>By calculator</h3>
          <FunnelTable
            label="Funnel by calculator"
            first="Calculator"
            rows={current.byCalculator.map((c) => ({ ...c, key: c.calculator, name: c.name }))}
          />
          <h3>By page</h3>
          <FunnelTable
            label="Funnel by page"
            first="Page"
            rows={pages
              .slice(0, TOP_PAGES)
              .map((p) => ({ ...p, key: p.page, name: <PageName page={p.page} /> }))}
          />
          {pages.length > TOP_PAGES ? (
            <p class="card-foot muted">
              {n(pages.length - TOP_PAGES)} more pages with fewer views; the API's funnel lists them all.
            </p>
          ) : null}
        </>
      )}
    </Card>
  );
}
