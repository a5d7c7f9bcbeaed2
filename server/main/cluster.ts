import cluster, { type Worker } from 'node:cluster';
import { rmSync, writeFileSync } from 'node:fs';
import { serveClusterMetrics } from '../http/metrics/metrics.ts';
import { serverInfoFile } from '../infra/admin-token.ts';
import type { Config } from '../infra/env.ts';
import { RestartPolicy } from './cluster-restarts.ts';

/** What a worker tells the primary once its listeners answer. */
export interface WorkerReady {
  svc: 'ready';
  apiUrl: string;
  banner: string;
}

const isWorkerReady = (m: unknown): m is WorkerReady =>
  typeof m === 'object' && m !== null && (m as { svc?: unknown }).svc === 'ready';

/**
 * `WEB_CONCURRENCY` > 1 (scale-out mode only): this process forks that many workers, each a full
 * instance (`startServers`) on the same ports, sharing PostgreSQL and Redis as separate instances
 * do. The first worker starts alone (it migrates and writes what is written once), the others
 * after it. The banner is printed once every worker answers; a worker that dies later is replaced
 * (`RestartPolicy`: isolated deaths always, a crash loop stops everything); one that fails to start
 * stops them all with its own message. SIGTERM and SIGINT are passed on
 * and every worker drains its requests before the primary exits.
 */
export function runPrimary(config: Config, print: (text: string) => void = console.log): void {
  const count = config.WEB_CONCURRENCY;
  const infoFile = serverInfoFile(config.DATA_DIR);
  const ready = new Set<Worker>();
  const restarts = new RestartPolicy();
  let banner: WorkerReady | undefined;
  let announced = false;
  let stopping = false;
  let exitCode = 0;

  const finishIfEmpty = () => {
    if (Object.keys(cluster.workers ?? {}).length > 0) return;
    rmSync(infoFile, { force: true });
    if (exitCode === 0) print('shutdown complete');
    process.exit(exitCode);
  };
  const stopAll = (code: number) => {
    if (stopping) return;
    stopping = true;
    exitCode = code;
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGTERM');
    // A worker stuck past its own drain deadline is not waited for.
    setTimeout(
      () => {
        for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill('SIGKILL');
      },
      config.SHUTDOWN_DRAIN_MS + config.SHUTDOWN_TIMEOUT_MS + 5_000,
    ).unref();
    finishIfEmpty();
  };

  const fork = (index: number) => {
    const worker = cluster.fork({ SVC_WORKER_INDEX: String(index) });
    restarts.started(index);
    worker.on('message', (message: unknown) => {
      if (!isWorkerReady(message) || ready.has(worker)) return;
      ready.add(worker);
      restarts.ready(index, Date.now());
      if (announced) print(`svc worker ${index} is serving again`);
      if (index === 0 && !banner) {
        banner = message;
        for (let i = 1; i < count; i++) fork(i);
      }
      if (banner && ready.size === count && !stopping && !announced) {
        announced = true;
        writeFileSync(infoFile, JSON.stringify({ apiUrl: banner.apiUrl, pid: process.pid }));
        print(`${banner.banner}\n  ${count} worker processes (WEB_CONCURRENCY) share these ports.\n`);
      }
    });
    worker.on('exit', (code, signal) => {
      const wasReady = ready.delete(worker);
      const how = signal ? `signal ${signal}` : `exit code ${code}`;
      if (stopping) {
        // A worker that could not drain cleanly (cut off, or failed) makes the whole stop a failure;
        // one still starting (never served) may simply die of the SIGTERM it was sent.
        if (code !== 0 && !(signal === 'SIGTERM' && !wasReady)) {
          exitCode = 1;
          console.error(`svc worker ${index} ended with ${how} while stopping`);
        }
        return finishIfEmpty();
      }
      // At start-up a failing worker is a configuration problem: its own message says which.
      if (!wasReady && !announced) {
        console.error(`svc worker ${index} stopped before it was ready (${how}); stopping`);
        return stopAll(1);
      }
      const decision = restarts.died(index, Date.now(), how);
      if (decision.action === 'stop') {
        console.error(decision.reason);
        return stopAll(1);
      }
      const after = decision.delayMs ? ` in ${decision.delayMs} ms` : '';
      console.error(`svc worker ${index} died (${how}); starting another${after}`);
      setTimeout(() => {
        if (!stopping) fork(index);
      }, decision.delayMs);
    });
  };

  let signalled = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (signalled) return;
    signalled = true;
    print(`${signal} received: draining ${Object.keys(cluster.workers ?? {}).length} workers`);
    stopAll(0);
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
  serveClusterMetrics();
  fork(0);
}
