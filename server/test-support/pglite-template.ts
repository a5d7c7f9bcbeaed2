import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { migrationFiles } from '../db/engine/migrate.ts';
import { repoRoot } from '../infra/repo-root.ts';

const PREFIX = 'pglite-template-';

/**
 * Where the migrated PGlite template lives. The name carries a digest of the migrations and the
 * PGlite version, so a run reuses a template only when it matches the code, and concurrent runs
 * in one working tree agree on the file.
 */
export function templatePath(): string {
  const digest = createHash('sha256').update(pgliteVersion());
  for (const file of migrationFiles()) digest.update(`\0${file.name}\0${file.sql}`);
  return join(templateDir(), `${PREFIX}${digest.digest('hex').slice(0, 16)}.tar`);
}

/**
 * The same template as a closed on-disk data directory: a server stack started on a copy of it
 * (`copyTemplateDataDir`) skips initdb and the migrations, as on any later start.
 */
export const templateDataDirPath = () => templatePath().replace(/\.tar$/, '.pgdata');

/** Copies the on-disk template to `dest` (a server's `DATA_DIR/pglite`); false when there is none yet. */
function copyTemplateDataDir(dest: string): boolean {
  const source = templateDataDirPath();
  if (!existsSync(join(source, 'PG_VERSION'))) return false;
  cpSync(source, dest, { recursive: true });
  return true;
}

/**
 * A DATA_DIR without an embedded database gets a copy of the migrated template when the test run
 * has one (vitest's global setup makes it), so it opens as on any later start: initdb and the
 * migrations are tested on their own (server/db) and cost seconds per server or CLI process.
 */
export function startFromTemplate(dataDir: string): void {
  const target = join(dataDir, 'pglite');
  if (existsSync(target)) return;
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  copyTemplateDataDir(target);
}

/** A fresh DATA_DIR under the system's temporary folder, its embedded database copied from the template. */
export function freshDataDir(prefix: string): string {
  const dataDir = mkdtempSync(join(tmpdir(), prefix));
  startFromTemplate(dataDir);
  return dataDir;
}

const templateDir = () => join(repoRoot(), '.tmp');

/** Templates of older migrations: 40 MB each, so they are removed once a newer one exists. */
export function removeStaleTemplates(keep: string): void {
  if (!existsSync(templateDir())) return;
  const keepDataDir = keep.replace(/\.tar$/, '.pgdata');
  for (const name of readdirSync(templateDir())) {
    const path = join(templateDir(), name);
    const stale = name.startsWith(PREFIX) && path !== keep && path !== keepDataDir;
    if (stale && (name.endsWith('.tar') || name.endsWith('.pgdata')))
      rmSync(path, { recursive: true, force: true });
  }
}

function pgliteVersion(): string {
  const manifest = join(repoRoot(), 'node_modules', '@electric-sql', 'pglite', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
