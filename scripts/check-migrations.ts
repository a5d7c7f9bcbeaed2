import { execFile } from 'node:child_process';
import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { promisify } from 'node:util';
import config from '../drizzle.config.ts';
import { repoRoot } from '../server/infra/repo-root.ts';

/**
 * `npm run db:check`: fails when server/db/engine/schema.ts says something its migrations do not, i.e.
 * when `npm run db:generate` would write a new file. It runs the same `drizzle-kit generate` (same
 * settings, from drizzle.config.ts) on a temporary copy of the migrations folder and reports what
 * appeared there. Offline: drizzle-kit compares schema.ts with the last snapshot, no database.
 */
export async function pendingMigration(): Promise<{ files: string[]; sql: string }> {
  const root = repoRoot();
  const out = resolve(root, config.out ?? 'drizzle');
  const scratch = mkdtempSync(join(tmpdir(), 'svc-migrations-'));
  try {
    // drizzle-kit reads its snapshots relative to the working directory: run it from the copy's parent.
    cpSync(out, join(scratch, 'migrations'), { recursive: true });
    const before = new Set(readdirSync(join(scratch, 'migrations')));
    const bin = join(dirname(createRequire(import.meta.url).resolve('drizzle-kit')), 'bin.cjs');
    const schemas = [config.schema ?? []].flat().map((s) => resolve(root, s));
    await promisify(execFile)(
      process.execPath,
      [
        bin,
        'generate',
        `--dialect=${config.dialect}`,
        ...schemas.map((s) => `--schema=${s}`),
        '--out=./migrations',
        `--breakpoints=${config.breakpoints ?? true}`,
        `--prefix=${config.migrations?.prefix ?? 'index'}`,
        '--name=pending',
      ],
      { cwd: scratch, env: { ...process.env, NO_COLOR: '1' } },
    );
    const files = readdirSync(join(scratch, 'migrations')).filter((f) => !before.has(f));
    const sql = files.map((f) => readFileSync(join(scratch, 'migrations', f), 'utf8')).join('\n');
    return { files, sql };
  } finally {
    rmSync(scratch, { recursive: true, force: true });
  }
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  const { files, sql } = await pendingMigration();
  if (files.length) {
    console.error(
      `server/db/engine/schema.ts has changes no migration carries; \`npm run db:generate -- --name=what_changed\` would write ${files.join(', ')}:\n${sql}`,
    );
    process.exit(1);
  }
  console.log('migrations are up to date with server/db/engine/schema.ts');
}
