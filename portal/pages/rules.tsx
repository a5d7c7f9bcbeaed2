import type { Source, Status } from '../../calculators/estate-tax/rule-sources.ts';
import type { NotPublishedRow, RuleSetRow } from '../../calculators/estate-tax/rules-catalog.ts';
import { stateName } from '../../calculators/limits.ts';
import type { RuleChange } from '../../calculators/rules-changelog.ts';
import { api } from '../api.ts';
import { Badge, Card, ErrorNote, Loading, PageHeader, TableWrap } from '../components/ui.tsx';
import { calculatorName } from '../format.ts';
import { useResource } from '../use-resource.ts';
import { RuleNoticesBanner } from './rule-notices-banner.tsx';

const STATUS: Record<Status, { words: string; tone: 'good' | 'warn' | 'bad' }> = {
  primary: { words: 'Primary source', tone: 'good' },
  secondary: { words: 'Secondary sources only', tone: 'warn' },
  missing: { words: 'Missing', tone: 'bad' },
};

// The rules' dates are calendar days, not instants: formatted in UTC so no time zone shifts them.
const dayFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
const formatDate = (iso: string) => dayFmt.format(new Date(`${iso}T00:00:00Z`));

const KIND: Record<Source['kind'], string> = {
  primary: 'primary',
  secondary: 'secondary',
  search: 'searched, none found',
};

/** "2026-11-24" as a date; "2026-11" (the law reference's pass, day not recorded) as a month. */
const checkedOn = (checked: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(checked) ? formatDate(checked) : `${checked} (law reference)`;

function SourceList(props: { sources: readonly Source[] }) {
  return (
    <ul class="source-list">
      {props.sources.map((s) => (
        <li key={s.title}>
          {s.url ? (
            <a href={s.url} rel="noreferrer noopener" target="_blank">
              {s.title}
            </a>
          ) : (
            s.title
          )}
          <span class="cell-sub">
            {KIND[s.kind]} · checked {checkedOn(s.checked)}
          </span>
        </li>
      ))}
    </ul>
  );
}

function RuleSetTable(props: { set: RuleSetRow }) {
  const { set } = props;
  const headingId = `rules-${set.id}`;
  return (
    <div class="rule-set">
      <div class="rule-set-head">
        <h3 id={headingId}>{set.covers}</h3>
        <Badge tone={STATUS[set.status].tone}>{STATUS[set.status].words}</Badge>
      </div>
      <TableWrap label={`${set.jurisdiction}: ${set.covers}`}>
        <table class="table table-stack rules-table" aria-labelledby={headingId}>
          <colgroup>
            <col class="col-figure" />
            <col class="col-value" />
            <col class="col-status" />
            <col class="col-sources" />
          </colgroup>
          <thead>
            <tr>
              <th scope="col">Figure</th>
              <th scope="col">Value</th>
              <th scope="col">Status</th>
              <th scope="col">Sources</th>
            </tr>
          </thead>
          <tbody>
            {set.figures.map((f) => (
              <tr key={f.key}>
                <td>
                  <span class="cell-main">{f.label}</span>
                  {f.note ? <span class="cell-sub">{f.note}</span> : null}
                </td>
                <td class="num" data-label="Value">
                  {f.value}
                </td>
                <td data-label="Status">
                  <Badge tone={STATUS[f.status].tone}>{STATUS[f.status].words}</Badge>
                </td>
                <td class="sources-cell">
                  <SourceList sources={f.sources} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </div>
  );
}

const KIND_WORDS: Record<RuleChange['kind'], string> = {
  added: 'Added',
  confirmed: 'Confirmed',
  corrected: 'Corrected',
};

/** "What changed", newest first: each change with its figure before and after and what it touches. */
function WhatChanged(props: { changes: readonly RuleChange[] }) {
  return (
    <Card
      title="What changed"
      id="what-changed"
      description="Newest first. Stored results keep the rules they were computed with."
    >
      <ol class="rule-changes">
        {props.changes.map((c) => (
          <li key={c.id} class="rule-change" id={`change-${c.id.replace(/[^\w-]/g, '-')}`}>
            <p class="rule-change-head">
              <span class="cell-sub">{formatDate(c.date)}</span>{' '}
              <Badge tone="neutral">{KIND_WORDS[c.kind]}</Badge> <strong>{c.figure}</strong>
            </p>
            <p>{c.summary}</p>
            <dl class="rule-change-facts">
              <div>
                <dt>Before</dt>
                <dd>{c.before ?? 'Not in the tables'}</dd>
              </div>
              <div>
                <dt>After</dt>
                <dd>
                  {c.after} <Badge tone={STATUS[c.status].tone}>{STATUS[c.status].words}</Badge>
                </dd>
              </div>
              <div>
                <dt>Source</dt>
                <dd>
                  {c.source.url ? (
                    <a href={c.source.url} rel="noreferrer noopener" target="_blank">
                      {c.source.title}
                    </a>
                  ) : (
                    c.source.title
                  )}
                </dd>
              </div>
              <div>
                <dt>Touches</dt>
                <dd>
                  {c.calculators.length === 0
                    ? 'No calculator'
                    : `${c.calculators.map(calculatorName).join(', ')} · ${c.states.length ? c.states.map(stateName).join(', ') : 'every state'}`}
                </dd>
              </div>
            </dl>
          </li>
        ))}
      </ol>
    </Card>
  );
}

/** Next year's checklist: every figure looked for and not yet published. */
function NotPublished(props: { rows: readonly NotPublishedRow[] }) {
  if (props.rows.length === 0) return null;
  return (
    <Card
      title="Still not published"
      id="not-published"
      description="Looked for and not found. A death in that year uses the latest amount on record, and the visitor is told."
    >
      <ul class="not-published">
        {props.rows.map((p) => (
          <li key={p.id}>
            <strong>{p.jurisdiction}</strong>: {p.figure}
          </li>
        ))}
      </ul>
    </Card>
  );
}

/** Rule sets grouped by jurisdiction, federal first, in the order the catalog gives them. */
function byJurisdiction(sets: RuleSetRow[]): [string, RuleSetRow[]][] {
  const groups = new Map<string, RuleSetRow[]>();
  for (const set of sets) groups.set(set.jurisdiction, [...(groups.get(set.jurisdiction) ?? []), set]);
  return [...groups];
}

/**
 * The firm's view of the estate-tax rules: which law applies to which dates of death, every figure
 * with its sources, when they were checked, and how far they are confirmed. Visitors never see
 * this; they read plain notices when an amount for their year is not confirmed.
 */
export function RulesPage() {
  const { data, error } = useResource(() => api.get('rules'));
  const count = (status: Status) => data?.ruleSets.filter((s) => s.status === status).length ?? 0;
  return (
    <div class="page">
      <PageHeader
        title="Rules and sources"
        lead={
          data ? (
            <>
              The estate-tax calculator covers deaths from {formatDate(data.coverage.from)} to{' '}
              {formatDate(data.coverage.to)}. Every figure below names its source and the day it was checked;
              the rules were last checked on {formatDate(data.checked)}.
            </>
          ) : (
            'Which law the calculators apply, and where every figure comes from.'
          )
        }
      />
      <ErrorNote error={error} />
      <RuleNoticesBanner />
      {!data ? (
        <Loading />
      ) : (
        <>
          <div class="notice" role="note">
            <p>
              <strong>{count('primary')}</strong> rule sets are confirmed by primary sources (statutes, bills,
              the revenue departments’ own forms and tables); <strong>{count('secondary')}</strong> rest on
              secondary sources only for at least one figure; <strong>{count('missing')}</strong> amounts for
              a coming year are not yet published. A death in such a year uses the latest amount on record,
              and the visitor reads that the amount for that year was not confirmed.
            </p>
          </div>
          <WhatChanged changes={data.changes} />
          <NotPublished rows={data.notPublished} />
          {byJurisdiction(data.ruleSets).map(([jurisdiction, sets]) => (
            <Card key={jurisdiction} title={jurisdiction} id={`rules-${sets[0]!.code}`}>
              {sets.map((set) => (
                <RuleSetTable key={set.id} set={set} />
              ))}
            </Card>
          ))}
        </>
      )}
    </div>
  );
}
