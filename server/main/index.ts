import cluster from 'node:cluster';
import { fileURLToPath } from 'node:url';
import { type Config, ConfigError, loadConfig } from '../infra/env.ts';
import { createLogger } from '../infra/logger.ts';
import { runPrimary, type WorkerReady } from './cluster.ts';
import { bannerOf } from './start-up-banner.ts';

/**
 * `npm start`. The servers themselves (`servers.ts`) are loaded only where they run: a cluster
 * primary (`WEB_CONCURRENCY` > 1) only forks and watches its workers, and stays small.
 */

async function main(): Promise<void> {
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
  // A stray rejection is a bug to log, not a reason to drop every in-flight request.
  const logger = createLogger(config.LOG_LEVEL);
  process.on('unhandledRejection', (reason) => logger.error({ err: reason }, 'unhandled rejection'));
  if (cluster.isPrimary && config.WEB_CONCURRENCY > 1) return runPrimary(config);
  // A worker serves under its primary (cluster.ts), which prints the banner once all are up.
  const { startServers } = await import('./servers.ts');
  const running = await startServers(config, process.env, { serverInfo: cluster.isPrimary });
  if (cluster.isWorker)
    process.send?.({
      svc: 'ready',
      apiUrl: running.apiUrl,
      banner: bannerOf(running, config.NODE_ENV, config.DESTINATION_BASE_URLS.text),
    } satisfies WorkerReady);
  else console.log(bannerOf(running, config.NODE_ENV, config.DESTINATION_BASE_URLS.text));
  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal} received: draining`);
    // Whatever a dependency does, the process is gone soon after the drain's own deadline: an
    // orchestrator's SIGKILL would otherwise come in the middle of the work.
    setTimeout(
      () => {
        console.error('shutdown did not finish in time; exiting');
        process.exit(1);
      },
      config.SHUTDOWN_DRAIN_MS + config.SHUTDOWN_TIMEOUT_MS + 5_000,
    ).unref();
    running.close().then(
      () => {
        console.log('shutdown complete');
        process.exit(0);
      },
      (error: unknown) => {
        console.error('shutdown failed', error);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => stop('SIGTERM'));
  process.on('SIGINT', () => stop('SIGINT'));
  // A worker whose primary is gone (killed) drains and exits instead of holding the ports alone.
  if (cluster.isWorker) process.on('disconnect', () => stop('primary gone'));
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  main().catch((error: unknown) => {
    console.error(`svc failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
