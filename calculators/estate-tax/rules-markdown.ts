import type { Source, Status } from './rule-sources.ts';
import type { RulesCatalog } from './rules-catalog.ts';

const STATUS_WORDS: Record<Status, string> = {
  primary: 'Confirmed by a primary source',
  secondary: 'Secondary sources only',
  missing: 'Missing (not published)',
};

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const sourceText = (s: Source) =>
  `${s.url ? `[${cell(s.title)}](${s.url})` : cell(s.title)} (${s.kind}, checked ${s.checked})`;

/**
 * docs/rules-and-sources.md: the same rule sets, figures, statuses and sources as the portal's
 * "Rules and sources" page, as one table (a test keeps the file equal to this output).
 */
export function rulesMarkdown(catalog: RulesCatalog): string {
  const lines = [
    '# Estate-tax rules and sources',
    '',
    '<!-- Generated from calculators/estate-tax/rule-sources.ts, calculators/rules-changelog.ts and the tables by `npm run docs`; do not edit by hand. -->',
    '',
    `Dates of death covered: ${catalog.coverage.from} to ${catalog.coverage.to}. Rules last checked: ${catalog.checked}.`,
    '',
    '## What changed',
    '',
    'Newest first. Each change has a stable id; the firms whose calculators it touches are told once, by a',
    'banner in the portal and a `rules.updated` webhook event (see [webhooks](webhooks.md)). Results and',
    'leads already stored keep the rules they were computed with.',
    '',
    '| Recorded | Id | Figure | Before | After | Status | Source | Calculators | States |',
    '|---|---|---|---|---|---|---|---|---|',
    ...catalog.changes.map(
      (c) =>
        `| ${c.date} | \`${c.id}\` | ${cell(c.figure)} | ${cell(c.before ?? '(new)')} | ${cell(c.after)} | ${STATUS_WORDS[c.status]} | ${c.source.url ? `[${cell(c.source.title)}](${c.source.url})` : cell(c.source.title)} | ${c.calculators.join(', ') || 'none'} | ${c.states.join(', ') || (c.calculators.length ? 'all' : '—')} |`,
    ),
    '',
    '## Still not published',
    '',
    'The checklist for the next pack: each figure below was looked for and not found.',
    '',
    ...catalog.notPublished.map((p) => `- ${p.jurisdiction}: ${p.figure} (\`${p.id}\`)`),
    '',
    '## Every figure',
    '',
    'Status: **primary** = a statute, bill or session-law text, or a revenue department’s own form or table;',
    '**secondary** = only commentators, datasets or news reports (the figure is used and the firm is told);',
    '**missing** = not published when checked: deaths in that year use the latest confirmed amount, and the',
    'visitor reads that the amount for that year was not confirmed. “checked 2026-11” = the law reference’s',
    'second pass (day not recorded). No figure is projected or estimated from inflation.',
    '',
    '| Rule set | Jurisdiction | Covers | Figure | Value | Status | Sources (kind, date checked) | Note |',
    '|---|---|---|---|---|---|---|---|',
  ];
  for (const set of catalog.ruleSets) {
    for (const f of set.figures) {
      lines.push(
        `| ${set.id} | ${set.jurisdiction} | ${set.covers} | ${cell(f.label)} | ${cell(f.value)} | ${STATUS_WORDS[f.status]} | ${f.sources.map(sourceText).join('<br>')} | ${cell(f.note ?? '')} |`,
      );
    }
  }
  return `${lines.join('\n')}\n`;
}
