import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { needs } from '../test-support/needs.ts';
import { startFromTemplate } from '../test-support/pglite-template.ts';
import {
  runServerProcessToExit,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
} from '../test-support/server-process.ts';

/**
 * A container runs the server as pid 1 of a PID namespace of its own: `unshare --pid --fork
 * --mount-proc` does the same here (it needs root, as CI has). `--kill-child` takes the server
 * down with unshare should the test end early.
 */
const CONTAINER = ['unshare', '--pid', '--fork', '--mount-proc', '--kill-child'];

function whyNoNamespaces(): string | undefined {
  if (process.getuid?.() !== 0) return 'not running as root';
  const probe = spawnSync(CONTAINER[0]!, [...CONTAINER.slice(1), 'true'], {
    encoding: 'utf8',
    timeout: 10_000,
  });
  if (probe.error) return `unshare cannot run (${probe.error.message})`;
  if (probe.status !== 0) return `unshare failed (${probe.stderr.trim()})`;
  return undefined;
}
const unavailable = whyNoNamespaces();
/**
 * A start takes a few seconds (the data directory is a copy of the migrated template); the bound
 * is generous because the machine may be loaded many times over, as it was when this first ran.
 */
const START_TIMEOUT_MS = 120_000;

/** The server itself: unshare's only child, pid 1 inside its namespace. */
function serverPid(unshare: ServerProcess): number {
  const pid = unshare.child.pid!;
  const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean);
  expect(children).toHaveLength(1);
  return Number(children[0]);
}

const pidInsideNamespace = (hostPid: number) =>
  readFileSync(`/proc/${hostPid}/status`, 'utf8')
    .split('\n')
    .find((line) => line.startsWith('NSpid:'))!
    .split(/\s+/)
    .at(-1);

// Needs root and unshare: skipped (and listed) elsewhere, a failure with CI=true.
needs({ what: 'PID namespaces', missing: unavailable, howTo: 'run as root where unshare works' }).describe(
  'the embedded server in a container (a PID namespace of its own, pid 1)',
  { timeout: 420_000 },
  () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-container-'));
    const env = { DATA_DIR: dataDir, DATABASE_URL: '', REDIS_URL: '', WEB_CONCURRENCY: '1' };
    let first: ServerProcess | undefined;
    let restarted: ServerProcess | undefined;

    afterAll(async () => {
      await stopServerProcess(restarted, 'SIGKILL');
      await stopServerProcess(first, 'SIGKILL');
    });

    it('refuses a second container sharing the data directory while the first serves', async () => {
      startFromTemplate(dataDir);
      first = await startServerProcess(env, START_TIMEOUT_MS, { prefix: CONTAINER });
      expect(pidInsideNamespace(serverPid(first))).toBe('1');
      expect((await fetch(`${first.url}/readyz`)).status).toBe(200);

      const second = await runServerProcessToExit(env, START_TIMEOUT_MS, { prefix: CONTAINER });
      expect(second.code).not.toBe(0);
      expect(second.output).toMatch(/data directory .* is in use by process 1\b/);
      expect((await fetch(`${first.url}/readyz`)).status).toBe(200);
    });

    it('restarts at once in a fresh namespace after the first is killed with SIGKILL', async () => {
      expect(first).toBeDefined();
      process.kill(serverPid(first!), 'SIGKILL');
      await first!.exited;

      restarted = await startServerProcess(env, START_TIMEOUT_MS, { prefix: CONTAINER });
      expect(pidInsideNamespace(serverPid(restarted))).toBe('1');
      const ready = await fetch(`${restarted.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(restarted.output()).not.toMatch(/in use by/);
      // A balancer probing from one address, faster than the 120/min default budget: never a 429.
      const probes = await Promise.all(Array.from({ length: 150 }, () => fetch(`${restarted!.url}/readyz`)));
      expect(probes.map((p) => p.status)).toEqual(probes.map(() => 200));

      process.kill(serverPid(restarted), 'SIGTERM');
      const end = await restarted.exited;
      expect(end.code).toBe(0);
    });
  },
);
