import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { Database } from '../db/engine/database.ts';
import { createAccount } from '../domain/accounts/accounts.ts';
import { createApiKey } from '../domain/accounts/api-keys.ts';
import type { ApiKeyScope } from '../domain/credentials/scopes.ts';
import { createLicense, type NewLicenseInput } from '../domain/licensing/licenses.ts';
import { loadConfig } from '../infra/env.ts';
import { silentLogger } from '../infra/logger.ts';
import { createFixedClock } from '../lib/clock.ts';
import { createApiApp, createServices, type Services } from '../main/services.ts';
import { loadSecretKey } from '../secrets/secret-key.ts';
import { createTestDatabase } from './db.ts';
import { mintAltcha } from './pow.ts';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export const TEST_NOW = '2026-03-01T12:00:00Z';

/** Test contexts' data directories not removed yet: a file that never closes its context loses them at exit. */
const dataDirs = new Set<string>();

let removedAtExit = false;

function madeDataDir(): string {
  if (!removedAtExit) {
    removedAtExit = true;
    process.once('exit', () => {
      for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
    });
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-ctx-'));
  dataDirs.add(dir);
  return dir;
}

function removeDataDir(dir: string): void {
  rmSync(dir, { recursive: true, force: true });
  dataDirs.delete(dir);
}

/**
 * A whole API over a test database, with a frozen clock. One per test file (PGlite start-up is
 * the expensive part); tests keep apart by creating their own account and license.
 */
export async function createTestContext(
  env: Record<string, string> = {},
  database?: Database,
  opts: { logger?: Logger; redis?: Redis } = {},
) {
  const db = database ?? (await createTestDatabase());
  const clock = createFixedClock(TEST_NOW);
  // A data directory of its own (mail outbox, /readyz's disk check), removed on close: the default
  // ./data is the repository's, shared by test files running side by side and absent in a fresh
  // clone until some test happens to make it.
  const ownDataDir = env.DATA_DIR ? undefined : madeDataDir();
  // Limits scaled up so functional tests never meet them; rate limiting has its own tests.
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    RATE_LIMIT_SCALE: '100',
    ...(ownDataDir ? { DATA_DIR: ownDataDir } : {}),
    ...env,
  });
  const services = await createServices({
    config,
    database: db,
    clock,
    logger: opts.logger ?? silentLogger(),
    secretKey: config.SECRET_KEY
      ? loadSecretKey({ secretKey: config.SECRET_KEY, dataDir: '.' })
      : randomBytes(32),
    ...(opts.redis ? { redis: opts.redis } : {}),
  });
  const app = createApiApp(services, opts.redis ? { redis: opts.redis } : {});
  const post = (path: string, body: unknown, headers: Record<string, string>) =>
    app.request(path, {
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
  /**
   * POSTs JSON. A lead posted with a bearer token and no `altcha` key gets the proof of work a
   * widget would send (a challenge fetched with the same token, answered by `mintAltcha`), since a
   * lead without one is held; a test about proof of work names `altcha` itself (even undefined).
   */
  const json = async (path: string, body: unknown, headers: Record<string, string> = {}) => {
    if (path === '/v1/api/leads' && headers.authorization && isPlainObject(body) && !('altcha' in body)) {
      const res = await post('/v1/api/leads/challenge', {}, { authorization: headers.authorization });
      if (res.status === 200)
        body = { ...body, altcha: mintAltcha(services.licensing.pepper, await res.json()) };
    }
    return post(path, body, headers);
  };
  /** An embed session's token for a publishable key, opened from `origin` as a widget's page would. */
  const embedSession = async (publishableKey: string, origin = 'https://smithlaw.com') => {
    const res = await post('/v1/api/license/activate', { licenseKey: publishableKey }, { origin });
    if (res.status !== 200) throw new Error(`embed session: ${res.status} ${await res.text()}`);
    return (await res.json()).token as string;
  };
  const get = (path: string, bearer?: string) =>
    app.request(path, bearer ? { headers: { authorization: `Bearer ${bearer}` } } : {});
  const close = async () => {
    await db.close();
    if (ownDataDir) removeDataDir(ownDataDir);
  };
  return { app, services, clock, database: db, json, get, embedSession, seed: seeder(services), close };
}

export type TestContext = Awaited<ReturnType<typeof createTestContext>>;

function seeder(services: Services) {
  const deps = services.licensing;
  return {
    async firm(license: Partial<Omit<NewLicenseInput, 'accountId'>> = {}) {
      const account = await createAccount(deps, {
        name: 'Smith & Søn Estate Law',
        email: 'admin@smithlaw.example',
      });
      const created = await createLicense(deps, {
        accountId: account.id,
        plan: 'pro',
        seats: 2,
        domains: ['smithlaw.com', '*.smithlaw.com'],
        paidThrough: new Date('2026-12-31T00:00:00Z'),
        ...license,
      });
      return {
        account,
        license: created.license,
        licenseKey: created.licenseKey,
        publishableKey: created.publishableKey,
      };
    },
    /** A key with every scope unless told otherwise (what keys made before scopes carry). */
    apiKey: (accountId: string, scopes: ApiKeyScope[] = ['admin']) =>
      createApiKey(deps, { accountId, name: 'test key', scopes }),
  };
}
