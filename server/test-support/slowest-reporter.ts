import type { Reporter, TestModule } from 'vitest/node';

/**
 * With `SVC_SLOWEST=<n>` (scripts/test-all.mjs sets 12), the n test files that took longest,
 * with the time to import them and the time their tests ran: where `npm test` spends its minutes.
 * Wall time on a shared machine, so read it as a ranking, not a measurement.
 */
export default class SlowestReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const n = Number(process.env.SVC_SLOWEST ?? 0);
    if (!(n > 0) || modules.length === 0) return;
    const rows = modules
      .map((m) => {
        const d = m.diagnostic();
        return {
          file: `${m.project.name}: ${m.relativeModuleId}`,
          total:
            d.environmentSetupDuration + d.prepareDuration + d.collectDuration + d.setupDuration + d.duration,
          importing: d.collectDuration,
          tests: d.duration,
        };
      })
      .sort((a, b) => b.total - a.total);
    const sum = rows.reduce((s, r) => s + r.total, 0);
    const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`.padStart(8);
    console.log(
      [
        '',
        `slowest ${Math.min(n, rows.length)} of ${rows.length} test files (all files together: ${s(sum).trim()})`,
        '   total   import    tests  file',
        ...rows.slice(0, n).map((r) => `${s(r.total)} ${s(r.importing)} ${s(r.tests)}  ${r.file}`),
      ].join('\n'),
    );
  }
}
