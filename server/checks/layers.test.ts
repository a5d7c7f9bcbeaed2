import { join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import extractDepcruiseOptions from 'dependency-cruiser/config-utl/extract-depcruise-options';
import extractTSConfig from 'dependency-cruiser/config-utl/extract-ts-config';
import { describe, expect, it } from 'vitest';
import { repoRoot } from '../infra/repo-root.ts';

// The layering rules of .dependency-cruiser.cjs, run as a test so `npm test` fails on a violation
// (`npm run layers` prints the same report). docs/development.md ("Layout") says what the rules mean.
const root = repoRoot();
const SOURCES = ['server', 'calculators', 'protocol', 'widget', 'loader', 'portal', 'sdk'];

/** One line per violation: `rule: from → to`, or the whole loop for a cycle; sorted. */
async function violations(baseDir: string, sources: string[]): Promise<string[]> {
  const options = await extractDepcruiseOptions(join(root, '.dependency-cruiser.cjs'));
  const tsConfig = extractTSConfig(join(root, 'tsconfig.base.json'));
  const { output } = await cruise(sources, { ...options, baseDir }, undefined, { tsConfig });
  const { summary } = output as ICruiseResult;
  return summary.violations
    .map((v) => {
      // A package resolves to wherever node_modules really is, and to one of its files: name the package.
      const to = v.cycle
        ? v.cycle.map((step) => step.name).join(' → ')
        : v.to.replace(/^(?:.*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\/.*$/, 'node_modules/$1');
      return `${v.rule.name}: ${v.from} → ${to}`;
    })
    .sort();
}

describe('layering (dependency-cruiser)', () => {
  // About 6 s of CPU; the generous timeout is for a machine busy with the rest of `npm test`.
  it('holds across the tree', { timeout: 180_000 }, async () => {
    const found = await violations(root, SOURCES);
    expect(found, found.join('\n')).toEqual([]);
  });

  it('reports a fixture that breaks the rules, and lets its type-only import pass', async () => {
    const fixture = join(root, 'server/test-support/layer-fixture');
    expect(await violations(fixture, ['server', 'portal', 'widget'])).toEqual([
      'browser-not-to-server: widget/lead-count.ts → server/db/leads-repo.ts',
      'domain-not-to-drizzle: server/domain/inline-query.ts → node_modules/drizzle-orm',
      'no-server-cycles: server/domain/ping.ts → server/domain/pong.ts → server/domain/ping.ts',
      'routes-not-to-db: server/routes/leads.ts → server/db/leads-repo.ts',
      'subject-order: server/domain/caches/warm-leads.ts → server/domain/leads/recent.ts',
      'subject-order: server/domain/outbox/queue.ts → server/domain/portal/view.ts',
      'subject-placed: server/domain/gossip/rumour.ts → server/domain/caches/warm-leads.ts',
    ]);
  });
});
