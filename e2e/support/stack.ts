import { type Browser, chromium } from 'playwright-core';
import type { RunningServers } from '../../server/index.ts';
import { startStack as startServerStack } from '../../server/test-support/stack.ts';

/** The real server stack (API, embed host, examples host) on loopback ports, over a fresh embedded database. */
export const startStack = (): Promise<RunningServers> => startServerStack({ RATE_LIMIT_SCALE: '10' });

/** Debian's Chromium (`apt-get install -y chromium`), never a downloaded browser. */
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
