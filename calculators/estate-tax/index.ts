import type { CalculationResult, CalculatorDefinition } from '../types.ts';
import { estateTaxCore } from './core.ts';
import { basicExclusionOn } from './federal-tables.ts';
import { ESTATE_TAX_LISTING } from './listing.ts';
import { type RuleSetRow, rulesCatalog } from './rules-catalog.ts';
import { type EstateTaxInput, estateTaxSchema } from './schema.ts';

let byId: Map<string, RuleSetRow> | undefined;
const ruleSetRow = (id: string) => {
  byId ??= new Map(rulesCatalog().ruleSets.map((r) => [r.id, r]));
  return byId.get(id);
};

/**
 * The server's result: the core's, plus the sources of every figure used (the widget bundles no
 * source text) and, for the firm's views, a note on each figure confirmed by secondary sources
 * only. Visitors never read those notes (visitorNotes drops them).
 */
function withSources(result: CalculationResult): CalculationResult {
  const date = String(result.outputs.dateOfDeath);
  const stateId = result.ruleSet.id.split('+')[1];
  const rows = [`US-${basicExclusionOn(date).effectiveDate}`, ...(stateId ? [stateId] : [])]
    .map(ruleSetRow)
    .filter((r): r is RuleSetRow => Boolean(r));
  const sources = rows.flatMap((r) =>
    r.figures.map((f) => `${r.jurisdiction} · ${f.label}: ${f.sources.map((s) => s.title).join('; ')}`),
  );
  const firmNotes = rows.flatMap((r) =>
    r.figures
      .filter((f) => f.status === 'secondary')
      .map(
        (f) =>
          `${r.jurisdiction} · ${f.label} (${f.value}), ${r.covers.replace(/^Deaths/, 'deaths')}: confirmed by secondary sources only [unverified]; check it before relying on the result.`,
      ),
  );
  return {
    ...result,
    notes: [...result.notes, ...firmNotes],
    ruleSet: { ...result.ruleSet, sources },
  };
}

/** The calculator's listing names every source behind its rule sets (once each). */
const allSources = () => [
  ...new Set(
    rulesCatalog().ruleSets.flatMap((r) =>
      r.figures.flatMap((f) => f.sources.filter((s) => s.kind !== 'search').map((s) => s.title)),
    ),
  ),
];

export const estateTax: CalculatorDefinition<EstateTaxInput> = {
  ...estateTaxCore,
  ...ESTATE_TAX_LISTING,
  ruleSet: { ...ESTATE_TAX_LISTING.ruleSet, sources: allSources() },
  inputSchema: estateTaxSchema,
  compute: (input, context) => withSources(estateTaxCore.compute(input, context)),
};
