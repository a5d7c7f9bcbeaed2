import { mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { createDatabase } from '../db/database.ts';
import { migrate } from '../db/migrate.ts';
import { templatePath } from './db.ts';

/** Once per vitest run: a migrated PGlite data directory that every test file loads. */
export default async function setup(): Promise<void> {
  const started = performance.now();
  const database = await createDatabase({ dataDir: 'memory://' });
  await migrate(database);
  const client = (database.db as unknown as { $client: { dumpDataDir(c: 'none'): Promise<Blob> } }).$client;
  const dump = await client.dumpDataDir('none');
  await database.close();
  const file = templatePath();
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(`${file}.part`, Buffer.from(await dump.arrayBuffer()));
  renameSync(`${file}.part`, file);
  if (process.env.SVC_TEST_TIMINGS)
    console.log(`pglite template ready in ${Math.round(performance.now() - started)} ms`);
}
