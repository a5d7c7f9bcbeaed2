import { defineConfig } from 'drizzle-kit';

/**
 * drizzle-kit writes new migrations from server/db/engine/schema.ts into the folder the runner
 * (server/db/engine/migrate.ts) already applies, numbered after the last: `npm run db:generate -- --name=x`
 * writes `NNNN_x.sql` and `meta/NNNN_snapshot.json`; `-- --custom --name=x` writes an empty file
 * for what the schema cannot express (triggers, functions, data changes), to be filled by hand.
 * `meta/0013_snapshot.json` is the baseline: the state the hand-written 0001–0013 leave.
 * Offline: generating reads only schema.ts and the snapshots, never a database.
 */
export default defineConfig({
  dialect: 'postgresql',
  schema: './server/db/engine/schema.ts',
  out: './server/db/engine/migrations',
  // One statement per line-ending semicolon: the runner splits on those, not on drizzle's
  // `--> statement-breakpoint` markers.
  breakpoints: false,
  // 4-digit prefixes after the journal's last index (13), like the hand-written files.
  migrations: { prefix: 'index' },
});
