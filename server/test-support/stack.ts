import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../infra/env.ts';
import { type RunningServers, startServers } from '../main/servers.ts';
import { startFromTemplate } from './pglite-template.ts';

/**
 * Environment of a whole server stack on OS-chosen loopback ports over its own embedded database.
 * A DATA_DIR without a database starts from a copy of the migrated template (`startFromTemplate`).
 */
export function stackEnv(overrides: Record<string, string> = {}): Record<string, string> {
  const dataDir = overrides.DATA_DIR ?? mkdtempSync(join(tmpdir(), 'svc-stack-'));
  if (!overrides.DATABASE_URL) startFromTemplate(dataDir);
  return {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: dataDir,
    API_PORT: '0',
    EMBED_PORT: '0',
    EXAMPLES_PORT: '0',
    ...overrides,
  };
}

/** Starts the real stack (three listeners) as `npm start` would; tests, e2e and benches share it. */
export function startStack(overrides: Record<string, string> = {}): Promise<RunningServers> {
  const env = stackEnv(overrides);
  return startServers(loadConfig(env), env);
}
