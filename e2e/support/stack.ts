import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';
import { loadConfig } from '../../server/env.ts';
import { type RunningServers, startServers } from '../../server/index.ts';

/** The real server stack on ports chosen by the OS, with a fresh embedded database. */
export async function startStack(): Promise<RunningServers> {
  const env = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-e2e-')),
    API_PORT: '0',
    EMBED_PORT: '0',
    EXAMPLES_PORT: '0',
    RATE_LIMIT_SCALE: '10',
  };
  return startServers(loadConfig(env), env);
}

/** Debian's Chromium, never a downloaded browser. */
export function launchChromium(): Promise<Browser> {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--disable-sync',
      '--disable-quic',
      '--disable-dev-shm-usage',
    ],
  });
}
