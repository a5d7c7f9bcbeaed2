import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { PGlite } from '@electric-sql/pglite';
import { createDatabase } from '../db/engine/database.ts';
import { migrate } from '../db/engine/migrate.ts';
import { removeStaleTemplates, templateDataDirPath, templatePath } from './pglite-template.ts';

/**
 * Once per vitest run: a migrated PGlite data directory that every test file loads instead of
 * paying PGlite's initdb (a tarball for in-memory databases, and the same as a directory for
 * server stacks on disk). Reused across runs while the migrations are unchanged.
 */
export default async function setup(): Promise<void> {
  const started = performance.now();
  await ensureTarball(templatePath());
  await ensureDataDir(templateDataDirPath(), templatePath());
  removeStaleTemplates(templatePath());
  if (process.env.SVC_TEST_TIMINGS) {
    console.log(`pglite templates ready in ${Math.round(performance.now() - started)} ms`);
  }
}

async function ensureTarball(file: string): Promise<void> {
  if (existsSync(file)) return;
  const database = await createDatabase({ dataDir: 'memory://' });
  await migrate(database);
  // Uncompressed: loading it is about twice as fast as a gzipped one.
  const dump = await (database.db as unknown as { $client: PGlite }).$client.dumpDataDir('none');
  await database.close();
  mkdirSync(dirname(file), { recursive: true });
  // A name of our own, then an atomic rename: runs started together never read a half-written file.
  const part = `${file}.${process.pid}.part`;
  writeFileSync(part, Buffer.from(await dump.arrayBuffer()));
  renameSync(part, file);
  rmSync(part, { force: true });
}

async function ensureDataDir(dir: string, tarball: string): Promise<void> {
  if (existsSync(`${dir}/PG_VERSION`)) return;
  const part = `${dir}.${process.pid}.part`;
  rmSync(part, { recursive: true, force: true });
  const database = await createDatabase({
    dataDir: part,
    loadDataDir: new Blob([readFileSync(tarball)]),
  });
  await database.close();
  try {
    renameSync(part, dir);
  } catch {
    // Another run renamed its copy into place first: theirs is as good.
  }
  rmSync(part, { recursive: true, force: true });
}
