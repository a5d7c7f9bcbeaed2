import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { repoRoot } from '../server/infra/repo-root.ts';
import { scratchPostgres, spawnServer } from './memory.ts';

const run = promisify(execFile);

export interface StartupFigures {
  /** Seconds from `npm start` to the first 200 from `/readyz`, median of `runs`, on a built tree. */
  pgliteSeconds: number;
  /** PGlite's own cold start in a new process (node start, import, open the same directory): the yardstick. */
  pgliteColdStartSeconds: number;
  postgresSeconds?: number;
  runs: number;
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const round = (s: number) => Math.round(s * 100) / 100;

/** `npm start` until `/readyz`, then SIGTERM; the data directory (and database) are reused. */
async function npmStart(env: Record<string, string>): Promise<number> {
  const server = await spawnServer(env, 'npm', ['start', '--silent']);
  await server.stop();
  return server.readySeconds;
}

/** A new node process that imports the server's database layer and opens `dataDir`. */
async function pgliteColdStart(dataDir: string): Promise<number> {
  const module = join(repoRoot(), 'dist', 'server', 'server', 'db', 'engine', 'database.js');
  const script = `const { createDatabase } = await import(${JSON.stringify(`file://${module}`)});
const db = await createDatabase({ dataDir: process.argv[1] });
await db.ping();
await db.close();`;
  const started = performance.now();
  await run(process.execPath, ['--input-type=module', '-e', script, dataDir]);
  return (performance.now() - started) / 1000;
}

/**
 * Start-up time of `npm start` on an already built tree (it builds first if the sources changed,
 * not timed): a first start creates the data directory (not timed either), then `runs` starts on it.
 */
export async function runStartupBench(options: { runs?: number; databaseUrl?: string } = {}) {
  const runs = options.runs ?? 3;
  await run(process.execPath, [join(repoRoot(), 'scripts', 'build-if-stale.mjs')], { cwd: repoRoot() });
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-startup-'));
  const figures: StartupFigures = { pgliteSeconds: 0, pgliteColdStartSeconds: 0, runs };
  try {
    await npmStart({ DATA_DIR: dataDir });
    const pglite: number[] = [];
    const cold: number[] = [];
    for (let i = 0; i < runs; i++) {
      pglite.push(await npmStart({ DATA_DIR: dataDir }));
      cold.push(await pgliteColdStart(join(dataDir, 'pglite')));
    }
    figures.pgliteSeconds = round(median(pglite));
    figures.pgliteColdStartSeconds = round(median(cold));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (options.databaseUrl) {
    const scratch = await scratchPostgres(options.databaseUrl);
    const pgDir = mkdtempSync(join(tmpdir(), 'svc-startup-pg-'));
    const env = { DATA_DIR: pgDir, DATABASE_URL: scratch.url, SECRET_KEY: randomBytes(32).toString('hex') };
    try {
      await npmStart(env);
      const times: number[] = [];
      for (let i = 0; i < runs; i++) times.push(await npmStart(env));
      figures.postgresSeconds = round(median(times));
    } finally {
      await scratch.drop();
      rmSync(pgDir, { recursive: true, force: true });
    }
  }
  return figures;
}

export function printStartupFigures(f: StartupFigures): void {
  console.log(`npm start → /readyz (median of ${f.runs}, built tree, existing data)`);
  console.log(
    `  embedded PGlite  ${f.pgliteSeconds.toFixed(2)} s   (PGlite's cold start alone ${f.pgliteColdStartSeconds.toFixed(2)} s; target: + 1 s)`,
  );
  if (f.postgresSeconds !== undefined)
    console.log(`  PostgreSQL       ${f.postgresSeconds.toFixed(2)} s   (target: 2 s)`);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  printStartupFigures(
    await runStartupBench(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  );
}
