import { type ChildProcess, spawn } from 'node:child_process';
import { closeSync, mkdtempSync, openSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { SECURITY_HEADERS } from '../server/http/headers/security-headers.ts';
import { HIT_SCRIPT } from '../server/http/rate-limit/counters.ts';
import { repoRoot } from '../server/infra/repo-root.ts';

export interface ServerProcess {
  url: string;
  pid: number;
  /** Resident set size now, in MB (from /proc; 0 where there is none). */
  rssMb(): number;
  /** CPU time the process and its children (cluster workers) have used so far, in ms (Linux). */
  cpuMs(): number;
  stop(): Promise<void>;
}

/** The process's resident set, with its children's (cluster workers). */
function rssOf(pid: number): number {
  let children: number[] = [];
  try {
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // no /proc
  }
  return ownRss(pid) + children.reduce((sum, child) => sum + rssOf(child), 0);
}

/** Clock ticks per second of /proc/<pid>/stat's times (USER_HZ: 100 on Linux). */
const USER_HZ = 100;

/** CPU time of the process and its children, from /proc (utime + stime); 0 without /proc. */
function cpuOf(pid: number): number {
  let children: number[] = [];
  let own = 0;
  try {
    // The fields after the command name (which may hold spaces) start at state, field 3.
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    own = ((Number(fields[11]) + Number(fields[12])) * 1000) / USER_HZ;
    children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8')
      .split(/\s+/)
      .filter(Boolean)
      .map(Number);
  } catch {
    // no /proc
  }
  return own + children.reduce((sum, child) => sum + cpuOf(child), 0);
}

function ownRss(pid: number): number {
  try {
    const kb = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
    return kb ? Math.round(Number(kb) / 1024) : 0;
  } catch {
    return 0;
  }
}

async function waitFor(child: ChildProcess, logFile: string, pattern: RegExp): Promise<string> {
  const started = Date.now();
  for (;;) {
    const found = pattern.exec(readFileSync(logFile, 'utf8'))?.[1];
    if (found) return found;
    if (child.exitCode !== null || Date.now() - started > 120_000)
      throw new Error(`server did not start: ${readFileSync(logFile, 'utf8').slice(-800)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

function launch(args: string[], env: Record<string, string>, pattern: RegExp) {
  // Logs go to a file, as they would to a collector: the bench never slows the server by not reading.
  const logFile = join(mkdtempSync(join(tmpdir(), 'svc-bench-log-')), 'server.log');
  const fd = openSync(logFile, 'w');
  const child = spawn(process.execPath, args, {
    cwd: repoRoot(),
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', fd, fd],
  });
  closeSync(fd);
  return { child, logFile, ready: waitFor(child, logFile, pattern) };
}

function handle(child: ChildProcess, url: string): ServerProcess {
  return {
    url,
    pid: child.pid!,
    rssMb: () => rssOf(child.pid!),
    cpuMs: () => cpuOf(child.pid!),
    stop: () =>
      child.exitCode !== null
        ? Promise.resolve()
        : new Promise((resolve) => {
            child.once('exit', () => resolve());
            child.kill('SIGTERM');
          }),
  };
}

/**
 * The built server (`npm run build:server`), as `npm start` runs it, in its own process. With
 * `cpuProfileDir` V8 writes a `.cpuprofile` there when the process exits.
 */
export async function startBuiltServer(
  env: Record<string, string>,
  opts: { cpuProfileDir?: string } = {},
): Promise<ServerProcess> {
  const args = [
    ...(opts.cpuProfileDir ? ['--cpu-prof', `--cpu-prof-dir=${opts.cpuProfileDir}`] : []),
    'dist/server/server/main/index.js',
  ];
  const { child, ready } = launch(args, env, /API\s+(http:\/\/\S+)\/v1/);
  return handle(child, await ready);
}

const BARE = `require('node:http').createServer((req, res) => { res.setHeader('content-type', 'application/json'); res.end('{"status":"ok"}'); }).listen(0, '127.0.0.1', function () { console.log('listening http://127.0.0.1:' + this.address().port); });`;

/** A bare `node:http` hello-world in its own process: the ceiling every figure is compared with. */
export async function startBareServer(): Promise<ServerProcess> {
  const { child, ready } = launch(['-e', BARE], {}, /listening (http:\/\/\S+)/);
  return handle(child, await ready);
}

/**
 * The floor of a measured path (`bench/floor-server.cjs`) in its own process: a minimal
 * `node:http` server doing only the work no implementation of the path can skip. With `redisUrl`
 * it counts in Redis under `keyPrefix`, as the server with PostgreSQL + Redis; without, in memory.
 */
export async function startFloorServer(
  path: 'status' | 'activate',
  redis?: { url: string; keyPrefix: string },
): Promise<ServerProcess> {
  const env: Record<string, string> = {
    NODE_ENV: 'production',
    FLOOR_PATH: path,
    FLOOR_HIT_SCRIPT: HIT_SCRIPT,
    FLOOR_SECURITY_HEADERS: JSON.stringify(SECURITY_HEADERS),
    ...(redis ? { REDIS_URL: redis.url, FLOOR_KEY_PREFIX: redis.keyPrefix } : {}),
  };
  const { child, ready } = launch([join('bench', 'floor-server.cjs')], env, /listening (http:\/\/\S+)/);
  return handle(child, await ready);
}
