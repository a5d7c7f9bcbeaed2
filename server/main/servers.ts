import { rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { type AlignedClock, createAlignedClock, readDatabaseTime } from '../db/engine/aligned-clock.ts';
import { migrate } from '../db/engine/migrate.ts';
import { openConfiguredDatabase } from '../db/engine/open-data-dir.ts';
import { createHotBackup } from '../domain/backup/hot-backup.ts';
import { startDeliveryWorker } from '../domain/delivery/worker.ts';
import { demoAdminSignInLink } from '../domain/demo/admin.ts';
import { seedDemo } from '../domain/demo/seed.ts';
import { ensurePublishableKeys } from '../domain/licensing/keys.ts';
import { announceRuleChanges, changelogWith } from '../domain/rules/announce.ts';
import { closeAfterAnswer, drainServers, noticePeriod } from '../http/body/drain.ts';
import { type NodeLane, withLane } from '../http/requests/node-front.ts';
import { loadAdminToken, serverInfoFile } from '../infra/admin-token.ts';
import { createEmbedApp } from '../infra/embed-host.ts';
import { type Config, loadConfig } from '../infra/env.ts';
import { createExamplesApp } from '../infra/examples-host.ts';
import { createLogger } from '../infra/logger.ts';
import { createRedisClient } from '../infra/redis-client.ts';
import { repoRoot } from '../infra/repo-root.ts';
import { recordRunningServer } from '../infra/running-servers.ts';
import { systemClock } from '../lib/clock.ts';
import { createBackupRoutes } from '../routes/admin/backup.ts';
import { createAdminRoutes } from '../routes/admin/index.ts';
import { createAdminUserRoutes } from '../routes/admin/users.ts';
import { loadSecretKey } from '../secrets/secret-key.ts';
import { createApiApp, createServices } from './services.ts';

type NodeServer = Server;

export interface RunningServers {
  apiUrl: string;
  embedUrl: string;
  examplesUrl: string;
  demo: {
    licenseKey: string;
    publishableKey: string;
    apiKey: string;
    accountId: string | null;
    licenseId: string | null;
    /** True only on the start that created the demo firm. */
    created: boolean;
  };
  /** Where the portal is served (`PUBLIC_PORTAL_URL`), and a one-hour sign-in link for the demo firm's owner. */
  portalUrl: string;
  demoSignInLink?: string;
  demoAccountId?: string;
  adminToken: string;
  close(): Promise<void>;
}

type Fetch = (req: Request, env?: unknown) => Response | Promise<Response>;

/**
 * Serves `app.fetch` as the node adapter's `serve` does (its request listener, plain HTTP), behind
 * the lane `app.lane()` gives once there is one.
 */
function listen(
  app: { fetch: Fetch; lane?: () => NodeLane | undefined; closing?: () => boolean },
  host: string,
  port: number,
): Promise<NodeServer> {
  const listener = getRequestListener(app.fetch, { hostname: host });
  const server = createServer(
    app.lane ? withLane(listener, app.lane, app.closing ?? (() => false)) : listener,
  );
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

const urlOf = (server: NodeServer, host: string) => {
  const { port } = server.address() as AddressInfo;
  return `http://${host === '0.0.0.0' || host === '::' ? '127.0.0.1' : host}:${port}`;
};

/** Past this offset from the database's clock an instance says so (it still works: see aligned-clock.ts). */
const CLOCK_OFFSET_WARN_MS = 5_000;
/**
 * Starts the three listeners of DESIGN.md §2 on one database. Ports may be 0 (tests); public URLs
 * then follow the ports actually bound unless PUBLIC_*_URL say otherwise.
 */
export async function startServers(
  config: Config,
  env: Record<string, string | undefined> = process.env,
  opts: { serverInfo?: boolean } = {},
): Promise<RunningServers> {
  // `DATA_DIR/server.json` tells the CLI where the server is; under a primary, the primary writes it.
  const serverInfo = opts.serverInfo ?? true;
  const logger = createLogger(config.LOG_LEVEL);
  const { database, lock } = await openConfiguredDatabase(config);
  try {
    await migrate(database);
    // Instances sharing PostgreSQL stamp and check times on the database's clock (aligned-clock.ts).
    const clock = config.DATABASE_URL
      ? await createAlignedClock(() => readDatabaseTime(database), {
          onOffset: (offsetMs) => {
            if (Math.abs(offsetMs) > CLOCK_OFFSET_WARN_MS)
              logger.warn(
                { offsetMs },
                'this machine’s clock differs from the database’s; svc uses the database’s',
              );
          },
        })
      : systemClock;
    const secretKey = loadSecretKey({ secretKey: config.SECRET_KEY, dataDir: config.DATA_DIR });
    const adminToken = loadAdminToken(config.DATA_DIR, config.ADMIN_TOKEN);
    const redis = config.REDIS_URL ? await createRedisClient(config.REDIS_URL, logger) : undefined;

    // Bind first so port-0 listeners know their URLs before the apps are built with them.
    // `unready` (SIGTERM: /readyz 503) comes first; `shuttingDown` (the drain) after the notice period.
    let unready = false;
    let shuttingDown = false;
    // The node adapter's env ({ incoming, outgoing }) is passed on: the app reads the socket from it.
    let apiFetch: Fetch = () => new Response(null, { status: 503 });
    let embedFetch = apiFetch;
    let examplesFetch = apiFetch;
    const draining = () => shuttingDown;
    let apiLane: NodeLane | undefined;
    const api = await listen(
      {
        fetch: closeAfterAnswer((r, e) => apiFetch(r, e), draining),
        lane: () => apiLane,
        closing: draining,
      },
      config.HOST,
      config.API_PORT,
    );
    const embed = await listen(
      { fetch: closeAfterAnswer((r, e) => embedFetch(r, e), draining) },
      config.HOST,
      config.EMBED_PORT,
    );
    const examples = await listen(
      { fetch: closeAfterAnswer((r, e) => examplesFetch(r, e), draining) },
      config.HOST,
      config.EXAMPLES_PORT,
    );
    const bound = loadConfig({
      ...env,
      PUBLIC_API_URL: config.PUBLIC_API_URL ?? urlOf(api, config.HOST),
      PUBLIC_EMBED_URL: config.PUBLIC_EMBED_URL ?? urlOf(embed, config.HOST),
      PUBLIC_EXAMPLES_URL: config.PUBLIC_EXAMPLES_URL ?? urlOf(examples, 'localhost'),
      // WebAuthn refuses IP addresses as relying-party ids: the portal defaults to localhost.
      PUBLIC_PORTAL_URL:
        config.PUBLIC_PORTAL_URL ?? `http://localhost:${(api.address() as AddressInfo).port}`,
    });
    const effective: Config = {
      ...config,
      publicApiUrl: bound.publicApiUrl,
      publicEmbedUrl: bound.publicEmbedUrl,
      publicExamplesUrl: bound.publicExamplesUrl,
      publicPortalUrl: bound.publicPortalUrl,
    };

    const services = await createServices({
      config: effective,
      database,
      clock,
      logger,
      secretKey,
      ...(redis ? { redis } : {}),
    });
    const demo = await seedDemo(services.licensing, secretKey, { create: config.SEED_DEMO });
    // Under a primary only the first worker's banner is printed: only it makes a sign-in link, and
    // only when this start created the demo firm outside production (`demo credentials` otherwise).
    const printsDemo = demo.created && config.NODE_ENV !== 'production';
    const demoAdmin =
      printsDemo && (env.SVC_WORKER_INDEX ?? '0') === '0'
        ? await demoAdminSignInLink(services.portal)
        : undefined;
    await ensurePublishableKeys(services.licensing);
    // Changes to the calculators' law not yet recorded are recorded and announced here, once
    // across every worker and instance (the insert by the change's id decides who announces).
    const rules = await announceRuleChanges(
      database.db,
      clock.now(),
      changelogWith(env.SVC_TEST_RULE_CHANGES, config.NODE_ENV),
    );
    for (const id of rules.recorded)
      logger.info({ change: id, firms: rules.told[id]?.length ?? 0 }, 'rule change recorded');
    const apiApp = createApiApp(services, {
      ...(redis ? { redis } : {}),
      isShuttingDown: () => unready,
    });
    apiApp.route('/', createAdminRoutes(services, adminToken));
    apiApp.route('/', createAdminUserRoutes(services, adminToken));
    apiApp.route('/', createBackupRoutes(createHotBackup(database), adminToken));
    // Webhooks, alert mails and retention: every instance runs the worker; row locks share the work.
    const worker = config.DELIVERY_WORKER
      ? startDeliveryWorker(services.delivery, { pollMs: config.DELIVERY_POLL_MS })
      : undefined;
    // Funnel counts are flushed every few seconds off the request path (lost in a crash: at most these).
    services.licensing.funnel?.start(config.FUNNEL_FLUSH_SECONDS * 1000);
    apiFetch = apiApp.fetch;
    apiLane = apiApp.lane;
    embedFetch = createEmbedApp({
      distDir: `${repoRoot()}/dist/embed`,
      apiUrl: effective.publicApiUrl,
    }).fetch;
    examplesFetch = createExamplesApp({
      apiUrl: effective.publicApiUrl,
      embedUrl: effective.publicEmbedUrl,
      demoPublishableKey: demo.publishableKey,
    }).fetch;
    if (serverInfo)
      writeFileSync(
        serverInfoFile(config.DATA_DIR),
        JSON.stringify({ apiUrl: effective.publicApiUrl, pid: process.pid }),
      );
    const forget = serverInfo ? recordRunningServer(config.DATA_DIR, effective.publicApiUrl) : undefined;

    const close = async () => {
      // The balancer learns from /readyz and stops sending; what it still sends meanwhile is
      // served as usual (new connections accepted, keep-alive kept).
      unready = true;
      await noticePeriod(config.SHUTDOWN_DRAIN_MS);
      shuttingDown = true;
      // The delivery worker finishes its attempts in flight meanwhile, or abandons them when the timeout
      // is up (its leases run out); the database closes last.
      await Promise.all([
        drainServers([api, embed, examples] as Server[], config.SHUTDOWN_TIMEOUT_MS),
        worker?.stop(config.SHUTDOWN_TIMEOUT_MS),
      ]);
      await services.licensing.funnel?.stop().catch(() => {});
      if (clock !== systemClock) (clock as AlignedClock).stop();
      services.delivery.mailer.close();
      redis?.disconnect();
      await database.close();
      if (serverInfo) rmSync(serverInfoFile(config.DATA_DIR), { force: true });
      forget?.();
      lock?.release();
    };
    return {
      apiUrl: effective.publicApiUrl,
      embedUrl: effective.publicEmbedUrl,
      examplesUrl: effective.publicExamplesUrl,
      demo,
      portalUrl: effective.publicPortalUrl,
      ...(demoAdmin ? { demoSignInLink: demoAdmin.url, demoAccountId: demoAdmin.accountId } : {}),
      adminToken,
      close,
    };
  } catch (error) {
    await database.close().catch(() => {});
    lock?.release();
    throw error;
  }
}
