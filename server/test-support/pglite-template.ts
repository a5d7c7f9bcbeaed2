import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { migrationFiles } from '../db/migrate.ts';
import { repoRoot } from '../repo-root.ts';

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

export const templateDir = () => join(repoRoot(), '.tmp');

/** Templates of older migrations: 40 MB each, so they are removed once a newer one exists. */
export function removeStaleTemplates(keep: string): void {
  if (!existsSync(templateDir())) return;
  for (const name of readdirSync(templateDir())) {
    const path = join(templateDir(), name);
    if (name.startsWith(PREFIX) && name.endsWith('.tar') && path !== keep) rmSync(path, { force: true });
  }
}

function pgliteVersion(): string {
  const manifest = join(repoRoot(), 'node_modules', '@electric-sql', 'pglite', 'package.json');
  return (JSON.parse(readFileSync(manifest, 'utf8')) as { version: string }).version;
}
