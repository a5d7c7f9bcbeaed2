import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';
import { repoRoot } from './repo-root.ts';

// The layering rules of .dependency-cruiser.cjs, run as a test so `npm test` fails on a violation
// (`npm run layers` prints the same report). The README's "Layout" says what the rules mean.
const root = repoRoot();
const SOURCES = ['server', 'calculators', 'protocol', 'widget', 'loader', 'portal', 'sdk'];

/** One line per violation: `rule: from → to`, or the whole loop for a cycle. */
async function violations(baseDir: string, sources: string[]): Promise<string[]> {
  const options = await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(join(root, 'tsconfig.json'));
  const { output } = await cruise(sources, { ...options, baseDir }, undefined, { tsConfig });
  const { summary } = output as ICruiseResult;
  return summary.violations
    .map((v) => {
      const to = v.cycle ? v.cycle.map((step) => step.name).join(' → ') : v.to;
      return `${v.rule.name}: ${v.from} → ${to}`;
    })
    .sort();
}

describe('layering (dependency-cruiser)', () => {
  it('holds across the tree', { timeout: 120_000 }, async () => {
    const started = performance.now();
    const found = await violations(root, SOURCES);
    expect(found, found.join('\n')).toEqual([]);
    // Seconds on an idle machine; this bound only catches a cruise that wanders into node_modules.
    expect(performance.now() - started).toBeLessThan(90_000);
  });

  it('reports a fixture that breaks the rules, and lets its type-only import pass', async () => {
    const fixture = join(root, 'server/test-support/layer-fixture');
    expect(await violations(fixture, ['server', 'portal', 'widget'])).toEqual([
      'browser-not-to-server: widget/lead-count.ts → server/db/leads-repo.ts',
      'no-server-cycles: server/domain/ping.ts → server/domain/pong.ts → server/domain/ping.ts',
      'routes-not-to-db: server/routes/leads.ts → server/db/leads-repo.ts',
    ]);
  });
});
