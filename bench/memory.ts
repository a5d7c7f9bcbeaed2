import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { repoRoot } from '../server/infra/repo-root.ts';

export interface MemoryFigures {
  backend: 'pglite' | 'postgres';
  /** `fresh`: an empty DATA_DIR / database (initdb, migrations, demo seed); `existing`: a second start on it. */
  data: 'fresh' | 'existing';
  /** Seconds from spawning `node dist/server/server/main/index.js` to the first 200 from `/readyz`. */
  readySeconds: number;
  /** Resident set size (MB) right after `/readyz`, after the warm-up load, and after settling. */
  idleMb: number;
  loadedMb: number;
  settledMb: number;
  /** `GET /v1/api/licenses/status` during the warm-up load. */
  statusRps: number;
  statusP99Ms: number;
}

export interface MemoryBenchOptions {
  /** Seconds of warm-up load (autocannon, 16 connections). */
  loadSeconds?: number;
  /** Seconds to wait after the load before the last reading. */
  settleSeconds?: number;
  /** PostgreSQL server to compare with; unset = embedded only. */
  databaseUrl?: string;
  /** More environment for the server (e.g. `LOG_LEVEL`). */
  env?: Record<string, string>;
}

/** The slice of autocannon's API used here (the package ships no types). */
type Autocannon = (opts: {
  url: string;
  headers: Record<string, string>;
  connections: number;
  duration: number;
}) => Promise<{
  requests: { average: number; total: number };
  latency: { p99: number };
  non2xx: number;
  errors: number;
  timeouts: number;
}>;
const autocannon = createRequire(import.meta.url)('autocannon') as Autocannon;

const SERVER_ENTRY = () => join(repoRoot(), 'dist', 'server', 'server', 'main', 'index.js');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });
}

/** Resident set size of a process in MB, from /proc (Linux) or `ps` elsewhere. */
export function rssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1]);
    return Math.round(kb / 1024);
  } catch {
    return Number.NaN;
  }
}

/** Polls `/readyz` until it answers 200; returns the seconds since `started`. */
export async function waitReady(apiUrl: string, started: number, child: ChildProcess, timeoutMs = 120_000) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode} before /readyz`);
    if (performance.now() - started > timeoutMs) throw new Error(`no 200 from ${apiUrl}/readyz`);
    const ok = await fetch(`${apiUrl}/readyz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return (performance.now() - started) / 1000;
    await new Promise((r) => setTimeout(r, 20));
  }
}

export interface SpawnedServer {
  child: ChildProcess;
  apiUrl: string;
  output: () => string;
  readySeconds: number;
  stop(): Promise<void>;
}

/** Starts `command args` with the server's environment on free ports and waits for `/readyz`. */
export async function spawnServer(
  env: Record<string, string>,
  command: string = process.execPath,
  args: string[] = [SERVER_ENTRY()],
): Promise<SpawnedServer> {
  const [api, embed, examples] = [await freePort(), await freePort(), await freePort()];
  const apiUrl = `http://127.0.0.1:${api}`;
  let output = '';
  const started = performance.now();
  const child = spawn(command, args, {
    cwd: repoRoot(),
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? '',
      HOST: '127.0.0.1',
      API_PORT: String(api),
      EMBED_PORT: String(embed),
      EXAMPLES_PORT: String(examples),
      LOG_LEVEL: 'warn',
      NODE_ENV: 'production',
      RATE_LIMIT_SCALE: '1000',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    // Its own process group: `npm start` is npm → sh → node, and all of them stop together.
    detached: true,
  });
  child.stdout?.on('data', (d) => {
    output += d;
  });
  child.stderr?.on('data', (d) => {
    output += d;
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    try {
      process.kill(-child.pid!, 'SIGTERM');
    } catch {
      child.kill('SIGTERM');
    }
    const timer = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {}
    }, 15_000);
    await exited;
    clearTimeout(timer);
  };
  try {
    const readySeconds = await waitReady(apiUrl, started, child);
    return { child, apiUrl, output: () => output, readySeconds, stop };
  } catch (error) {
    await stop();
    throw new Error(`${(error as Error).message}\n${output}`);
  }
}

/**
 * The demo secret license key, from the admin API (`npm run svc -- demo credentials`): a start
 * prints it only when it created the demo firm outside production, and the bench runs in production.
 */
async function demoLicenseKey(server: SpawnedServer, env: Record<string, string>): Promise<string> {
  const token = env.ADMIN_TOKEN ?? readFileSync(join(env.DATA_DIR!, 'admin-token'), 'utf8').trim();
  const res = await fetch(`${server.apiUrl}/admin/v1/demo/credentials`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}` },
  });
  if (!res.ok) throw new Error(`demo credentials: ${res.status} ${await res.text()}\n${server.output()}`);
  return ((await res.json()) as { demo: { licenseKey: string } }).demo.licenseKey;
}

async function statusLoad(apiUrl: string, licenseKey: string, seconds: number) {
  const res = await fetch(`${apiUrl}/v1/api/licenses/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ licenseKey, siteDomain: 'localhost' }),
  });
  if (!res.ok) throw new Error(`licenses/activate: HTTP ${res.status} ${await res.text()}`);
  const { accessJwt } = (await res.json()) as { accessJwt: string };
  const result = await autocannon({
    url: `${apiUrl}/v1/api/licenses/status`,
    headers: { authorization: `Bearer ${accessJwt}` },
    connections: 16,
    duration: seconds,
  });
  const failed = result.non2xx + result.errors + result.timeouts;
  if (failed > 0) throw new Error(`licenses/status: ${failed} of ${result.requests.total} failed`);
  return { rps: Math.round(result.requests.average), p99Ms: result.latency.p99 };
}

async function measure(
  backend: MemoryFigures['backend'],
  data: MemoryFigures['data'],
  env: Record<string, string>,
  opts: Required<Omit<MemoryBenchOptions, 'databaseUrl'>>,
): Promise<MemoryFigures> {
  const server = await spawnServer({ ...env, ...opts.env });
  try {
    const pid = server.child.pid!;
    const licenseKey = await demoLicenseKey(server, { ...env, ...opts.env });
    const idleMb = rssMb(pid);
    const load = await statusLoad(server.apiUrl, licenseKey, opts.loadSeconds);
    const loadedMb = rssMb(pid);
    await new Promise((r) => setTimeout(r, opts.settleSeconds * 1000));
    return {
      backend,
      data,
      readySeconds: Math.round(server.readySeconds * 100) / 100,
      idleMb,
      loadedMb,
      settledMb: rssMb(pid),
      statusRps: load.rps,
      statusP99Ms: load.p99Ms,
    };
  } finally {
    await server.stop();
  }
}

/** A fresh database on the PostgreSQL server of `databaseUrl`; `drop` removes it. */
export async function scratchPostgres(databaseUrl: string): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `svc_bench_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const url = new URL(databaseUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await admin.query(`drop database if exists ${name} with (force)`);
      await admin.end();
    },
  };
}

/**
 * Memory of the built server (`npm run build` first), each as its own process as `npm start` runs
 * it: on a fresh DATA_DIR, then again on the same one, and on PostgreSQL when `databaseUrl` is set.
 */
export async function runMemoryBench(options: MemoryBenchOptions = {}): Promise<MemoryFigures[]> {
  const opts = {
    loadSeconds: options.loadSeconds ?? 5,
    settleSeconds: options.settleSeconds ?? 5,
    env: options.env ?? {},
  };
  const figures: MemoryFigures[] = [];
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-memory-'));
  try {
    figures.push(await measure('pglite', 'fresh', { DATA_DIR: dataDir }, opts));
    figures.push(await measure('pglite', 'existing', { DATA_DIR: dataDir }, opts));
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  if (options.databaseUrl) {
    const scratch = await scratchPostgres(options.databaseUrl);
    const pgDir = mkdtempSync(join(tmpdir(), 'svc-memory-pg-'));
    const env = { DATA_DIR: pgDir, DATABASE_URL: scratch.url, SECRET_KEY: randomBytes(32).toString('hex') };
    try {
      figures.push(await measure('postgres', 'fresh', env, opts));
      figures.push(await measure('postgres', 'existing', env, opts));
    } finally {
      await scratch.drop();
      rmSync(pgDir, { recursive: true, force: true });
    }
  }
  return figures;
}

export function printMemoryFigures(figures: MemoryFigures[]): void {
  console.log('backend   data      ready s  idle MB  loaded MB  settled MB  status req/s  p99 ms');
  for (const f of figures) {
    console.log(
      [
        f.backend.padEnd(9),
        f.data.padEnd(9),
        f.readySeconds.toFixed(2).padStart(7),
        String(f.idleMb).padStart(8),
        String(f.loadedMb).padStart(10),
        String(f.settledMb).padStart(11),
        String(f.statusRps).padStart(13),
        String(f.statusP99Ms).padStart(7),
      ].join(' '),
    );
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const figures = await runMemoryBench({
    ...(process.env.DATABASE_URL ? { databaseUrl: process.env.DATABASE_URL } : {}),
  });
  printMemoryFigures(figures);
}
