import { formatUsd } from '../money.ts';
import { changesNewestFirst, type RuleChange } from '../rules-changelog.ts';
import { applicableCredit } from './federal.ts';
import { BASIC_EXCLUSION } from './federal-tables.ts';
import { COVERAGE } from './labels.ts';
import { deathsInWords, RULES_CHECKED, type RulePart } from './rule-set.ts';
import { PENDING, pendingId, RULE_SOURCES, type Source, type Status } from './rule-sources.ts';
import { STATE_TABLES, type StateVersion } from './state-tables.ts';

/** One figure of a rule set as the firm reads it: its value, status and sources. */
interface FigureRow {
  key: string;
  label: string;
  value: string;
  status: Status;
  sources: readonly Source[];
  note?: string;
}

/** One rule set: a jurisdiction's figures for a period of dates of death. */
export interface RuleSetRow {
  /** `WA-2026-07-01`; `WA-2027` for a year whose amounts are missing. */
  id: string;
  code: string;
  jurisdiction: string;
  /** "Deaths on or after 1 July 2026". */
  covers: string;
  from: string;
  /** Last date of death covered, or null when open-ended. */
  to: string | null;
  /** The weakest status among its figures. */
  status: Status;
  figures: FigureRow[];
}

/** A figure still "not published": next year's checklist. */
export interface NotPublishedRow {
  id: string;
  jurisdiction: string;
  figure: string;
}

export interface RulesCatalog {
  checked: string;
  coverage: { from: string; to: string };
  ruleSets: RuleSetRow[];
  /** Every change to the rules, newest first ("What changed"). */
  changes: RuleChange[];
  notPublished: NotPublishedRow[];
}

const RANK: Record<Status, number> = { primary: 0, secondary: 1, missing: 2 };
const weakest = (statuses: Status[]): Status =>
  statuses.reduce<Status>((w, s) => (RANK[s] > RANK[w] ? s : w), 'primary');

const percent = (rate: string) => `${rate} %`;
type Row = { rate: string };
const span = (rates: string[]) => `${percent(rates[0]!)} to ${percent(rates.at(-1)!)}`;

const EXEMPTION_LABEL: Record<string, string> = {
  CT: 'Exemption (the federal basic exclusion)',
  NY: 'Basic exclusion amount',
  HI: 'Exclusion',
  IL: 'Exclusion',
  ME: 'Exclusion',
  WA: 'Exclusion',
};

/** A version's figures in words, by the key its sources are filed under. */
function stateFigures(
  code: string,
  v: Record<string, unknown>,
): { key: string; label: string; value: string }[] {
  const out: { key: string; label: string; value: string }[] = [];
  // New York's table calls it the exclusion; filed under one key with every state's exemption.
  const exemption = v.exemption ?? v.exclusion;
  if (typeof exemption === 'number')
    out.push({
      key: 'exemption',
      label: EXEMPTION_LABEL[code] ?? 'Exemption',
      value: formatUsd(exemption, 'unless-whole'),
    });
  if (typeof v.credit === 'number')
    out.push({ key: 'credit', label: 'Credit', value: formatUsd(v.credit, 'unless-whole') });
  if (typeof v.rate === 'string')
    out.push({ key: 'rate', label: 'Rate on the excess', value: percent(v.rate) });
  if (typeof v.cap === 'number')
    out.push({ key: 'cap', label: 'Tax cap', value: formatUsd(v.cap, 'unless-whole') });
  if (Array.isArray(v.rows)) {
    const rows = v.rows as Row[];
    out.push({
      key: 'rows',
      label: code === 'OR' || code === 'NY' ? 'Rate table (whole estate)' : 'Rate table (on the excess)',
      value: `${span(rows.map((r) => r.rate))}, ${rows.length} brackets`,
    });
  }
  if (Array.isArray(v.bands)) {
    const bands = v.bands as [number | null, string][];
    out.push({ key: 'bands', label: 'Rate bands', value: span(bands.map((b) => b[1])) });
  }
  if (code === 'MA' || code === 'RI')
    out.push({
      key: 'creditTable',
      label: 'Credit table (former IRC §2011(b), on estate − $60,000)',
      value: '0.8 % to 16 %, 20 brackets',
    });
  return out;
}

function rowOf(
  id: string,
  code: string,
  jurisdiction: string,
  part: RulePart,
  figures: { key: string; label: string; value: string }[],
): RuleSetRow {
  const filed = RULE_SOURCES[id] ?? {};
  const rows: FigureRow[] = figures.map((f) => {
    const computed = COMPUTED[f.key];
    if (computed && !filed[f.key]) {
      const base = filed[computed.from];
      return { ...f, status: base?.status ?? 'missing', sources: [computed.source] };
    }
    const source = filed[f.key];
    return {
      ...f,
      status: source?.status ?? 'missing',
      sources: source?.sources ?? [],
      ...(source?.note ? { note: source.note } : {}),
    };
  });
  const words = deathsInWords(part);
  const last = part.until
    ? new Date(Date.parse(`${part.until}T00:00:00Z`) - 86_400_000).toISOString().slice(0, 10)
    : part.indexed
      ? `${part.from.slice(0, 4)}-12-31`
      : null;
  return {
    id,
    code,
    jurisdiction,
    covers: `Deaths ${words}`,
    from: part.from,
    to: last,
    status: weakest(rows.map((r) => r.status)),
    figures: rows,
  };
}

function federalRows(): RuleSetRow[] {
  return BASIC_EXCLUSION.map((v) =>
    rowOf(
      `US-${v.effectiveDate}`,
      'US',
      'Federal',
      { name: 'Federal', from: v.effectiveDate, indexed: true },
      [
        { key: 'amount', label: 'Basic exclusion amount', value: formatUsd(v.amount, 'unless-whole') },
        {
          key: 'credit',
          label: 'Applicable credit (the rate schedule on the basic exclusion, computed)',
          value: formatUsd(applicableCredit(v.amount), 'unless-whole'),
        },
        { key: 'schedule', label: 'Rate schedule (IRC §2001(c))', value: '18 % to 40 %, 12 brackets' },
      ],
    ),
  );
}

/**
 * A computed figure is as confirmed as the figure it is computed from, and its source is the rule
 * that computes it (the federal applicable credit from the basic exclusion and §2001(c)).
 */
const COMPUTED: Record<string, { from: string; source: Source }> = {
  credit: {
    from: 'amount',
    source: {
      kind: 'primary',
      title:
        'Computed here: the IRC §2001(c) rate schedule applied to the basic exclusion amount (IRC §2010(c)(1))',
      checked: RULES_CHECKED,
    },
  },
};

function stateRows(): RuleSetRow[] {
  return Object.entries(STATE_TABLES).flatMap(([code, entry]) => {
    const dates = entry.versions.map((v) => v.effectiveDate).sort();
    return entry.versions.map((v: StateVersion & object) => {
      const until = dates.find((d) => d > v.effectiveDate);
      const part: RulePart = { name: entry.name, from: v.effectiveDate, until, indexed: v.indexed };
      return rowOf(
        `${code}-${v.effectiveDate}`,
        code,
        entry.name,
        part,
        stateFigures(code, v as Record<string, unknown>),
      );
    });
  });
}

/** A year whose indexed amount is missing: what a death then uses, and what was checked. */
function pendingRows(): RuleSetRow[] {
  return PENDING.map((p) => {
    const jurisdiction = p.code === 'US' ? 'Federal' : (STATE_TABLES[p.code]?.name ?? p.code);
    const value =
      p.used === false
        ? 'Not published; no calculator uses it'
        : `Not published; deaths in ${p.year} use ${latestAmount(p.code)} (${p.year - 1})`;
    return {
      id: pendingId(p),
      code: p.code,
      jurisdiction,
      covers: p.covers ?? `Deaths in ${p.year}`,
      from: `${p.year}-01-01`,
      to: `${p.year}-12-31`,
      status: 'missing' as const,
      figures: [
        {
          key: 'pending',
          label: p.figure,
          value,
          status: 'missing' as const,
          sources: p.sources,
          note: p.note,
        },
      ],
    };
  });
}

function latestAmount(code: string): string {
  if (code === 'US') return formatUsd(BASIC_EXCLUSION.at(-1)!.amount, 'unless-whole');
  const versions = [...(STATE_TABLES[code]?.versions ?? [])].sort((a, b) =>
    a.effectiveDate < b.effectiveDate ? -1 : 1,
  );
  const last = versions.at(-1) as { exemption?: number; exclusion?: number; credit?: number } | undefined;
  const amounts = [last?.exemption ?? last?.exclusion, last?.credit].filter(
    (n): n is number => typeof n === 'number',
  );
  return amounts.map((n) => formatUsd(n, 'unless-whole')).join(' and ');
}

/**
 * Every rule set with every figure, its status, sources and the day they were checked: the
 * portal's "Rules and sources" page and docs/rules-and-sources.md are both made from this.
 */
export function rulesCatalog(): RulesCatalog {
  const order = (r: RuleSetRow) => `${r.code === 'US' ? '' : r.jurisdiction} ${r.from}`;
  const ruleSets = [...federalRows(), ...stateRows(), ...pendingRows()].sort((a, b) =>
    order(a) < order(b) ? -1 : order(a) > order(b) ? 1 : 0,
  );
  const notPublished = PENDING.map((p) => ({
    id: pendingId(p),
    jurisdiction: p.code === 'US' ? 'Federal' : (STATE_TABLES[p.code]?.name ?? p.code),
    figure: p.figure,
  }));
  return {
    checked: RULES_CHECKED,
    coverage: { ...COVERAGE },
    ruleSets,
    changes: changesNewestFirst(),
    notPublished,
  };
}
