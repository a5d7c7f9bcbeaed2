import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../server/infra/repo-root.ts';

/** One row of the HTTP figures recorded in `docs/benchmarks.md`. */
export interface RecordedHttp {
  rps: number;
  /** req/s over the bare server of the same run. */
  ratio: number;
  p99At80Ms?: number;
}

/** The heading of the table in `docs/benchmarks.md` that `npm run bench` compares its run with. */
export const RECORDED_HEADING = '### Recorded HTTP figures';

const number = (cell: string) => Number(cell.replace(/[^\d.]/g, ''));

/**
 * The rows of the recorded table, keyed `backend path` (`pglite GET /licenses/status`): the
 * columns are backend, path, req/s, × bare, p99 at 80 %. Rows with a `—` p99 have none.
 */
export function parseRecordedHttp(markdown: string): Map<string, RecordedHttp> {
  const rows = new Map<string, RecordedHttp>();
  const start = markdown.indexOf(RECORDED_HEADING);
  if (start < 0) return rows;
  const lines = markdown.slice(start).split('\n').slice(1);
  for (const line of lines) {
    if (line.startsWith('#')) break;
    const cells = line.split('|').map((c) => c.trim().replace(/`/g, ''));
    if (cells.length < 6) continue;
    const [, backend = '', path = '', rps = '', ratio = '', p99 = ''] = cells;
    if (!/\d/.test(rps) || !/\d/.test(ratio)) continue;
    rows.set(`${backend} ${path}`, {
      rps: number(rps),
      ratio: number(ratio),
      ...(/\d/.test(p99) ? { p99At80Ms: number(p99) } : {}),
    });
  }
  return rows;
}

export function readRecordedHttp(): Map<string, RecordedHttp> {
  return parseRecordedHttp(readFileSync(join(repoRoot(), 'docs', 'benchmarks.md'), 'utf8'));
}

/** `now` against `recorded` as a signed percentage (`+12 %`, `−40 %`). */
export function change(now: number, recorded: number): string {
  if (!recorded) return 'n/a';
  const pct = Math.round(((now - recorded) / recorded) * 100);
  return `${pct >= 0 ? '+' : '−'}${Math.abs(pct)} %`;
}
