import { useState } from 'preact/hooks';
import { US_STATE_NAMES, US_STATES } from '../../calculators/limits.ts';
import type { LeadChart as LeadChartData, PortalLead } from '../../server/routes/portal/types.ts';
import { api, type PortalError } from '../api.ts';
import { Card, Empty, ErrorNote, Loading, PageHeader } from '../components/ui.tsx';
import { CALCULATORS, formatDate, plural } from '../format.ts';
import { location$, navigate } from '../router.ts';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { HeldLeadsBanner } from './held-leads-banner.tsx';
import { LeadChart } from './lead-chart.tsx';
import { LeadsTable } from './leads-table.tsx';
import { StatusPicker } from './status-picker.tsx';
import { TEST_MODE_SENTENCE, TestLeadsNotice } from './test-leads-notice.tsx';

/** The filters, exactly as the URL and the API carry them (so a filtered view can be shared). */
const FILTER_KEYS = [
  'q',
  'sort',
  'status',
  'calculator',
  'state',
  'language',
  'from',
  'to',
  'month',
  'test',
  'quarantined',
] as const;
type Filters = Partial<Record<(typeof FILTER_KEYS)[number], string>>;

function readFilters(): Filters {
  const query = new URLSearchParams(location$.value.split('?')[1] ?? '');
  return Object.fromEntries(FILTER_KEYS.flatMap((k) => (query.get(k) ? [[k, query.get(k)!]] : [])));
}

function queryOf(filters: Filters): string {
  const query = new URLSearchParams();
  for (const key of FILTER_KEYS) if (filters[key]) query.set(key, filters[key]!);
  const text = query.toString();
  return text ? `?${text}` : '';
}

function Select(props: {
  id: string;
  label: string;
  value: string | undefined;
  options: [string, string][];
  onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <select
        id={props.id}
        value={props.value ?? ''}
        onChange={(e) => props.onChange((e.target as HTMLSelectElement).value)}
      >
        {props.options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </select>
    </div>
  );
}

function DateField(props: {
  id: string;
  label: string;
  value: string | undefined;
  min?: string | undefined;
  max?: string | undefined;
  onChange: (value: string) => void;
}) {
  return (
    <div class="field">
      <label for={props.id}>{props.label}</label>
      <input
        id={props.id}
        type="date"
        value={props.value ?? ''}
        min={props.min}
        max={props.max}
        onChange={(e) => props.onChange((e.target as HTMLInputElement).value)}
      />
    </div>
  );
}

/**
 * The month picker's choices: any time, then the last 24 calendar months (UTC, as the API takes
 * them), newest first, and a month a shared link named further back. A select rather than
 * `<input type="month">`, which some browsers show as a plain text box.
 */
function monthOptions(now: Date, picked: string | undefined): [string, string][] {
  const months: [string, string][] = [];
  for (let i = 0; i < 24; i++) {
    const d = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - i, 1));
    months.push([
      d.toISOString().slice(0, 7),
      d.toLocaleDateString('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' }),
    ]);
  }
  if (picked && /^\d{4}-\d{2}$/.test(picked) && !months.some(([m]) => m === picked))
    months.push([
      picked,
      new Date(`${picked}-01T00:00:00Z`).toLocaleDateString('en-US', {
        month: 'long',
        year: 'numeric',
        timeZone: 'UTC',
      }),
    ]);
  return [['', 'Any month'], ...months];
}

function FilterBar(props: { filters: Filters; onChange: (filters: Filters) => void }) {
  const f = props.filters;
  const set = (key: keyof Filters) => (value: string) => props.onChange({ ...f, [key]: value || undefined });
  // A month and a from/to range are two ways to say a period: picking one clears the other.
  const period = (key: 'month' | 'from' | 'to') => (value: string) =>
    props.onChange(
      key === 'month'
        ? { ...f, month: value || undefined, from: undefined, to: undefined }
        : { ...f, [key]: value || undefined, month: undefined },
    );
  const active = FILTER_KEYS.some((k) => k !== 'sort' && f[k]);
  const [typed, setTyped] = useState(f.q ?? '');
  return (
    <form
      class="filters"
      aria-label="Filter leads"
      onSubmit={(e) => {
        e.preventDefault();
        set('q')(typed.trim());
      }}
    >
      <div class="field filters-search">
        <label for="filter-q">Search</label>
        <input
          id="filter-q"
          type="search"
          placeholder="Start of a name or e-mail"
          value={typed}
          maxLength={100}
          onInput={(e) => setTyped((e.target as HTMLInputElement).value)}
          onBlur={() => (typed.trim() !== (f.q ?? '') ? set('q')(typed.trim()) : undefined)}
        />
      </div>
      <Select
        id="filter-sort"
        label="Sort by"
        value={f.sort}
        onChange={set('sort')}
        options={[
          ['', 'Newest first'],
          ['priority', 'Priority'],
          ['value', 'Value'],
        ]}
      />
      <Select
        id="filter-status"
        label="Status"
        value={f.status}
        onChange={set('status')}
        options={[
          ['', 'Any status'],
          ['new', 'New'],
          ['contacted', 'Contacted'],
          ['converted', 'Converted'],
          ['lost', 'Lost'],
        ]}
      />
      <Select
        id="filter-calculator"
        label="Calculator"
        value={f.calculator}
        onChange={set('calculator')}
        options={[['', 'All calculators'], ...CALCULATORS.map((c): [string, string] => [c.slug, c.name])]}
      />
      <Select
        id="filter-state"
        label="State"
        value={f.state}
        onChange={set('state')}
        options={[['', 'All states'], ...US_STATES.map((s): [string, string] => [s, US_STATE_NAMES[s]])]}
      />
      <Select
        id="filter-language"
        label="Language"
        value={f.language}
        onChange={set('language')}
        options={[
          ['', 'All languages'],
          ['en', 'English'],
          ['es', 'Spanish'],
        ]}
      />
      <Select
        id="filter-month"
        label="Month"
        value={f.month}
        onChange={period('month')}
        options={monthOptions(new Date(), f.month)}
      />
      <DateField id="filter-from" label="From" value={f.from} max={f.to} onChange={period('from')} />
      <DateField id="filter-to" label="To" value={f.to} min={f.from} onChange={period('to')} />
      <div class="filters-end">
        <Select
          id="filter-quarantined"
          label="Held as possible spam"
          value={f.quarantined}
          onChange={set('quarantined')}
          options={[
            ['', 'Hidden'],
            ['include', 'Shown with the rest'],
            ['only', 'Only these'],
          ]}
        />
        <label class="check">
          <input
            type="checkbox"
            checked={f.test === 'include'}
            onChange={(e) => set('test')((e.target as HTMLInputElement).checked ? 'include' : '')}
          />
          <span class="check-label">Include test data</span>
        </label>
        {active ? (
          <button
            type="button"
            class="button button-small button-ghost"
            onClick={() => {
              setTyped('');
              props.onChange(f.sort ? { sort: f.sort } : {});
            }}
          >
            Clear filters
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** What the chart counts: the last 90 days of live leads, or the leads the filters below match. */
function chartDescription(data: LeadChartData | undefined): string {
  if (!data?.filtered)
    return 'Last 90 days, by calculator. Test data and held (quarantined) leads are not counted.';
  return `The leads the filters below match, ${formatDate(data.from)} – ${formatDate(data.to)} (UTC), by calculator.`;
}

export function LeadsPage() {
  const filters = readFilters();
  const query = queryOf(filters);
  const [extra, setExtra] = useState<PortalLead[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [changed, setChanged] = useState<Record<string, PortalLead>>({});
  const [error, setError] = useState<PortalError | null>(null);
  const {
    data,
    error: loadError,
    reload,
  } = useResource(async () => {
    const page = await api.get('leads', { ...filters, limit: 50 });
    setExtra([]);
    setCursor(page.nextCursor);
    setChanged({});
    return page;
  }, [query]);
  // The chart reads the list's own filters (without its order), so both always show the same leads.
  const chart = useResource(() => api.get('leads/chart', { ...filters, sort: undefined }), [query]);
  const leads = [...(data?.data ?? []), ...extra].map((l) => changed[l.leadId] ?? l);
  const more = async () => {
    if (!cursor) return;
    const page = await api.get('leads', { ...filters, limit: 50, cursor });
    setExtra([...extra, ...page.data]);
    setCursor(page.nextCursor);
  };
  const filtered = FILTER_KEYS.some((k) => k !== 'sort' && filters[k]);
  return (
    <div class="page">
      <PageHeader
        title="Leads"
        lead="People who used a calculator on your site and asked to be contacted."
        actions={
          // Viewers export no one's personal data (the server answers 403 as well).
          canManage() ? (
            <a class="button" href={`/v1/portal/leads/export.csv${query}`} download>
              Export CSV
            </a>
          ) : undefined
        }
      />
      <HeldLeadsBanner onReleased={reload} />
      <Card title="Leads per week" description={chartDescription(chart.data)}>
        {chart.error ? (
          <ErrorNote error={chart.error} />
        ) : chart.data ? (
          <LeadChart data={chart.data} />
        ) : (
          <Loading />
        )}
      </Card>
      <FilterBar filters={filters} onChange={(next) => navigate(`/portal/leads${queryOf(next)}`, true)} />
      <ErrorNote error={loadError ?? error} />
      {data ? (
        <TestLeadsNotice
          hidden={data.hiddenTest}
          href={`/portal/leads${queryOf({ ...filters, test: 'include' })}`}
        />
      ) : null}
      <Card>
        {!data ? (
          <Loading />
        ) : leads.length === 0 ? (
          <Empty title={filtered ? 'No leads match these filters' : 'No leads yet'}>
            {filtered
              ? 'Widen the dates or clear a filter.'
              : 'When a visitor sends the contact form under a calculator, the lead appears here within seconds.'}{' '}
            {filters.test ? '' : TEST_MODE_SENTENCE}
          </Empty>
        ) : (
          <>
            <p class="muted small result-count" aria-live="polite">
              {data.totalCapped ? `More than ${plural(data.total, 'lead')}` : plural(data.total, 'lead')}
              {filtered ? ' match these filters' : ''}
            </p>
            <LeadsTable
              leads={leads}
              statusCell={
                canManage()
                  ? (lead) => (
                      <StatusPicker
                        lead={lead}
                        onError={setError}
                        onChanged={(updated) => {
                          setError(null);
                          setChanged({ ...changed, [updated.leadId]: updated });
                        }}
                      />
                    )
                  : undefined
              }
            />
          </>
        )}
        {cursor ? (
          <p class="card-foot">
            <button type="button" class="button" onClick={more}>
              Show more
            </button>
          </p>
        ) : null}
      </Card>
    </div>
  );
}
