import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { freePort } from './free-port.ts';

/** Whether this machine has `redis-server` (CI installs it; the shared one must never be frozen). */
export const hasRedisServer = () => spawnSync('redis-server', ['--version']).status === 0;

export interface OwnRedis {
  url: string;
  child: ChildProcess;
  /** SIGSTOP: connections stay open and nothing answers, as in a partition or a stuck server. */
  freeze(): void;
  thaw(): void;
  stop(): Promise<void>;
}

/**
 * A redis-server of the test's own on a free loopback port, without persistence, that the test
 * may freeze and thaw (never do that to the Redis other suites share).
 */
export async function startOwnRedis(): Promise<OwnRedis> {
  const port = await freePort();
  const child = spawn(
    'redis-server',
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (d) => {
    output += d;
  });
  const started = Date.now();
  while (!/Ready to accept connections/.test(output)) {
    if (child.exitCode !== null || Date.now() - started > 10_000)
      throw new Error(`redis-server did not start: ${output.slice(-500)}`);
    await new Promise((r) => setTimeout(r, 20));
  }
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  return {
    url: `redis://127.0.0.1:${port}`,
    child,
    freeze: () => child.kill('SIGSTOP'),
    thaw: () => child.kill('SIGCONT'),
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGCONT');
      child.kill('SIGKILL');
      await exited;
    },
  };
}
