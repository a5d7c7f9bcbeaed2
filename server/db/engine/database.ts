import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { drizzle as drizzlePg } from 'drizzle-orm/node-postgres';
import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import pg from 'pg';
import { secureDataDir } from './data-dir-permissions.ts';
import { observePglite, observePool, type StatementObserver } from './observe-statements.ts';
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
  /** Told of every statement sent (tests count round trips with it). */
  onStatement?: StatementObserver;
}

/** How long a request waits for a new PostgreSQL connection before it is answered 503. */
const CONNECT_TIMEOUT_MS = 5_000;

export async function createDatabase(opts: DatabaseOptions): Promise<Database> {
  if (opts.databaseUrl) {
    const pool = new pg.Pool({
      connectionString: opts.databaseUrl,
      max: opts.poolSize ?? 10,
      // Operators (and the fault tests) can tell svc's connections apart in pg_stat_activity.
      application_name: 'svc',
      // An unreachable server fails a request in seconds (503) instead of holding it open.
      connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
      keepAlive: true,
    });
    // A client that loses its connection (a restart, a failover, a pooler or pg_terminate_backend
    // ending it) emits 'error'; with no listener that event ends the process. The pool listens on
    // idle clients only, so every client gets its own listener for its whole life: the query in
    // flight fails on its own (its request answers 503) and the pool drops the broken client.
    pool.on('error', () => {});
    pool.on('connect', (client) => client.on('error', () => {}));
    if (opts.onStatement) observePool(pool, opts.onStatement);
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
  const dataDir = opts.dataDir ?? 'memory://';
  if (!opts.loadDataDir) await initDataDirOutOfProcess(dataDir);
  const client = await PGlite.create({
    dataDir,
    startParams: [...PGlite.defaultStartParams, ...PGLITE_SETTINGS.flatMap((s) => ['-c', s])],
    ...(opts.loadDataDir ? { loadDataDir: opts.loadDataDir } : {}),
  });
  if (opts.onStatement) observePglite(client, opts.onStatement);
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

/**
 * PostgreSQL settings of the embedded database, on top of PGlite's own start parameters. PGlite's
 * shared buffers live in its WebAssembly memory, which only ever grows: the default 128 MB of them
 * become resident as pages are read and stay so. 16 MB hold this schema's hot pages many times over
 * (reads beyond them come from the OS page cache), and cut about 120 MB of idle memory at no cost
 * in throughput (bench/memory.ts). Passed as start parameters, so the data directory's own
 * postgresql.conf (time zone, locale) is left as initdb wrote it.
 */
const PGLITE_SETTINGS = ['shared_buffers=16MB'];

const run = promisify(execFile);

/**
 * A new data directory is initialised (PGlite's initdb) in a short-lived child process, not here:
 * initdb runs in a second WebAssembly instance and copies the directory through memory, which left
 * a long-running server holding about 450 MB it never used again. The child writes to a staging
 * directory renamed into place when complete, so a start-up interrupted during initdb leaves
 * nothing half-made behind. In-memory and existing directories are opened as they are.
 */
async function initDataDirOutOfProcess(dataDir: string): Promise<void> {
  if (dataDir.includes('://') || existsSync(`${dataDir}/PG_VERSION`)) return;
  if (existsSync(dataDir)) {
    // A directory with something else in it is PGlite's to judge (and to refuse).
    if (readdirSync(dataDir).length > 0) return;
    rmdirSync(dataDir);
  }
  const staging = `${dataDir}.initdb-${process.pid}`;
  rmSync(staging, { recursive: true, force: true });
  mkdirSync(staging, { recursive: true, mode: 0o700 });
  const script = `const { PGlite } = await import(process.argv[1]);
const pg = await PGlite.create({ dataDir: process.argv[2] });
await pg.close();`;
  const entry = pathToFileURL(createRequire(import.meta.url).resolve('@electric-sql/pglite')).href;
  try {
    await run(process.execPath, ['--input-type=module', '-e', script, entry, staging]);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    const stderr = (error as { stderr?: string }).stderr?.trim();
    throw new Error(`initialising the embedded database in ${dataDir} failed: ${stderr || error}`);
  }
  renameSync(staging, dataDir);
  // PGlite chmods what it creates to 0666; the data directory is the server's alone.
  secureDataDir(dataDir);
}

/** Runs `fn` in a transaction; the callback gets a `Db` so repositories work unchanged inside. */
export function withTransaction<T>(db: Db, fn: (tx: Db) => Promise<T>): Promise<T> {
  return db.transaction((tx) => fn(tx as unknown as Db));
}
