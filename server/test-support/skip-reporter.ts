import type { Reporter, TestCase, TestModule, TestSuite, Vitest } from 'vitest/node';

/**
 * Collects every skip of the run and says so at the end, loudly. Suites that `needs()` skipped
 * (PostgreSQL, Redis, … missing) are listed with the reason and the command that would run them;
 * any other skipped test (an `it.skip` left behind, a `runIf` of its own) is listed too.
 * With `CI=true` any skip at all fails the run (`needs()` already turns its own into failing tests
 * there; this catches the rest). `scripts/test-all.mjs` repeats the block under its timing table.
 */
export const SKIP_BANNER = 'SKIPPED, NOT RUN';

interface Skip {
  file: string;
  name: string;
  missing?: string;
  howTo?: string;
}

const isCi = () => Boolean(process.env.CI) && process.env.CI !== 'false' && process.env.CI !== '0';

export default class SkipReporter implements Reporter {
  /** `-t pattern` skips what it does not match: only `needs()` skips count then. */
  private filtered = false;

  onInit(vitest: Vitest): void {
    this.filtered = Boolean(vitest.config.testNamePattern);
  }

  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const skips = modules.flatMap(collect).filter((s) => s.missing || !this.filtered);
    if (skips.length === 0) return;
    const needed = skips.filter((s) => s.missing);
    const other = skips.filter((s) => !s.missing);
    const lines = [
      '',
      `━━━━ ${SKIP_BANNER}: ${skips.length} suite(s) or test(s) ━━━━`,
      ...needed.map((s) => `  ✗ ${s.file} › ${s.name}\n      ${s.missing}`),
      ...other.map((s) => `  ✗ ${s.file} › ${s.name}\n      skipped in the test itself`),
    ];
    const commands = [...new Set(needed.flatMap((s) => (s.howTo ? [s.howTo] : [])))];
    if (commands.length) lines.push(`  To run them: ${commands.join(' ')} npm test`);
    lines.push(
      isCi()
        ? '  CI=true: a skipped suite is a failure. This run FAILS.'
        : '  (With CI=true these skips fail the run.)',
      `━━━━ end of ${SKIP_BANNER} ━━━━`,
      '',
    );
    console.log(lines.join('\n'));
    if (isCi()) process.exitCode = 1;
  }
}

/** The outermost skipped suite or test of each branch, so one skipped describe is one line. */
function collect(module: TestModule): Skip[] {
  const file = module.relativeModuleId;
  const found: Skip[] = [];
  const walk = (children: Iterable<TestSuite | TestCase>) => {
    for (const task of children) {
      const skipped = task.type === 'test' ? task.result().state === 'skipped' : task.state() === 'skipped';
      const meta = task.meta().skippedFor;
      if (skipped && (meta || task.options.mode === 'skip' || task.type === 'test')) {
        found.push({ file, name: task.fullName, ...meta });
      } else if (task.type === 'suite') {
        walk(task.children);
      }
    }
  };
  walk(module.children);
  return found;
}
