import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pendingMigration } from '../../../scripts/check-migrations.ts';
import { migrationsDir } from './migrate.ts';

/** CI's guard for "schema changed without a migration" (`npm run db:check` runs the same). */
describe('migrations generated from schema.ts', () => {
  it('generating now would write nothing: every schema.ts change has its migration', async () => {
    const { files, sql } = await pendingMigration();
    expect(sql).toBe('');
    expect(files).toEqual([]);
  });

  it("every migration from the baseline (0013) on is in drizzle-kit's journal, in order", () => {
    const journal = JSON.parse(readFileSync(join(migrationsDir(), 'meta', '_journal.json'), 'utf8')) as {
      entries: { idx: number; tag: string }[];
    };
    // A file added by hand without `db:generate -- --custom` would leave drizzle-kit numbering the
    // next one as if it did not exist.
    const files = readdirSync(migrationsDir())
      .filter((f) => /^\d{4}_[\w-]+\.sql$/.test(f) && f >= '0013')
      .sort()
      .map((f) => f.replace(/\.sql$/, ''));
    expect(journal.entries.map((e) => e.tag)).toEqual(files);
    expect(journal.entries.map((e) => e.idx)).toEqual(files.map((f) => Number(f.slice(0, 4))));
  });
});
