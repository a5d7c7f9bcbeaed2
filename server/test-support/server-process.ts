import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compiledArgs } from './compiled-server.ts';
import { freshDataDir } from './pglite-template.ts';

export interface ServerProcess {
  child: ChildProcess;
  /** The API's base URL (without `/v1`), as the process printed it. */
  url: string;
  /** Everything the process wrote to stdout and stderr so far. */
  output(): string;
  /** Resolves with the exit code (null when a signal ended it) once the process is gone. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

export interface ProcessEnd {
  code: number | null;
  signal: NodeJS.Signals | null;
  output: string;
}

/**
 * Runs the server (`server/main/index.ts`, compiled as `npm start` runs it: compiled-server.ts) as its
 * own process with `env` over the test's environment, on OS-chosen loopback ports and (unless
 * `DATA_DIR` is given) a fresh data directory holding a copy of the migrated template database.
 * Returns once it listens, or rejects with its last output when it exits or does not start within
 * `timeoutMs`.
 */
export async function startServerProcess(
  env: Record<string, string>,
  timeoutMs = 180_000,
  options: SpawnOptions = {},
): Promise<ServerProcess> {
  const child = spawnServer(env, options);
  const started = Date.now();
  const apiUrl = () => /API\s+(http:\/\/\S+)\/v1/.exec(child.output())?.[1];
  while (!apiUrl()) {
    if (
      child.child.exitCode !== null ||
      child.child.signalCode !== null ||
      Date.now() - started > timeoutMs
    ) {
      child.child.kill('SIGKILL');
      throw new Error(`server process did not start: ${child.output().slice(-800)}`);
    }
    await new Promise((r) => setTimeout(r, 50));
  }
  return { ...child, url: apiUrl()! };
}

/** Runs the server process to its end (a start-up that is meant to be refused). */
export async function runServerProcessToExit(
  env: Record<string, string>,
  timeoutMs = 180_000,
  options: SpawnOptions = {},
): Promise<ProcessEnd> {
  const run = spawnServer(env, options);
  const timer = setTimeout(() => run.child.kill('SIGKILL'), timeoutMs);
  const { code, signal } = await run.exited;
  clearTimeout(timer);
  return { code, signal, output: run.output() };
}

/** Sends `signal` and waits for the process to be gone. */
export async function stopServerProcess(
  server: ServerProcess | undefined,
  signal: NodeJS.Signals = 'SIGTERM',
): Promise<{ code: number | null; signal: NodeJS.Signals | null }> {
  if (!server) return { code: null, signal: null };
  if (server.child.exitCode === null && server.child.signalCode === null) server.child.kill(signal);
  return server.exited;
}

export interface SpawnOptions {
  /**
   * A command the server runs under, e.g. `['unshare', '--pid', '--fork', '--mount-proc']` (a
   * fresh PID namespace, as in a container) or `['faketime', '+2m']`.
   */
  prefix?: string[];
}

function spawnServer(env: Record<string, string>, options: SpawnOptions = {}): Omit<ServerProcess, 'url'> {
  const [command, ...args] = [
    ...(options.prefix ?? []),
    process.execPath,
    ...compiledArgs('server/main/index.ts'),
  ];
  const child = spawn(command!, args, {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'warn',
      API_PORT: '0',
      EMBED_PORT: '0',
      EXAMPLES_PORT: '0',
      // Embedded: the migrated template, as on any later start (initdb is tested in server/db).
      DATA_DIR:
        env.DATA_DIR ??
        ((env.DATABASE_URL ?? process.env.DATABASE_URL)
          ? mkdtempSync(join(tmpdir(), 'svc-proc-'))
          : freshDataDir('svc-proc-')),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  child.stderr!.on('data', (d) => {
    output += d;
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  return { child, output: () => output, exited };
}

/**
 * The environment of instances that share one PostgreSQL database and Redis, as a scaled-out
 * deployment runs them: the same secret key and admin token, Redis counters of this test alone
 * (other suites share the Redis server), no demo firm. `extra` adds what the test is about.
 */
export function sharedInstanceEnv(
  databaseUrl: string,
  adminToken: string,
  extra: Record<string, string> = {},
): Record<string, string> {
  return {
    DATABASE_URL: databaseUrl,
    REDIS_URL: process.env.REDIS_URL!,
    REDIS_KEY_PREFIX: `svc-test-${randomBytes(6).toString('hex')}:`,
    SECRET_KEY: randomBytes(32).toString('hex'),
    ADMIN_TOKEN: adminToken,
    SEED_DEMO: 'false',
    ...extra,
  };
}
