import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import * as schema from './schema.ts';

/** The drizzle type both drivers share: repositories take this and run unchanged on either. */
export type Db = PgDatabase<PgQueryResultHKT, typeof schema>;

export interface Database {
  db: Db;
  kind: 'pglite' | 'postgres';
  /** Connection pool figures (PostgreSQL only), for metrics. */
  poolStats?(): { total: number; idle: number; waiting: number };
  /** The embedded database's whole data directory as a gzipped tarball (PGlite only). */
  dump?(): Promise<Blob>;
  ping(): Promise<void>;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  /** PostgreSQL; when unset the embedded PGlite is used. */
  databaseUrl?: string;
  /** PGlite directory, or `memory://` for an in-memory database. */
  dataDir?: string;
  /** A PGlite data directory tarball (from `dumpDataDir`) to start from. */
  loadDataDir?: Blob | File;
  poolSize?: number;
}

export async function createDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: opts.poolSize ?? 10 });
    // An idle client that loses its connection must not take the process down.
    pool.on('error', () => {});
    const db = drizzlePg({ client: pool, schema }) as unknown as Db;
    return {
      db,
      kind: 'postgres',
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      ping: async () => {
        await db.execute(sql`select 1`);
      },
      close: async () => {
        if (!pool.ending) await pool.end();
      },
    };
  }
  const client = await PGlite.create({
    dataDir: opts.dataDir ?? 'memory://',
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  const db = drizzlePglite({ client, schema }) as unknown as Db;
  return {
    db,
    kind: 'pglite',
    // PGlite serves one query at a time, so the dump is a consistent snapshot between queries.
    dump: () => client.dumpDataDir('gzip'),
    ping: async () => {
      await client.query('select 1');
    },
    close: async () => {
      if (!client.closed) await client.close();
    },
  };
}

/** Runs `fn` in a transaction; the callback gets a `Db` so repositories work unchanged inside. */
export function withTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}
