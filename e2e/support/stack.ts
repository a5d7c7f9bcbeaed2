import { execSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium } from 'playwright-core';
import type { RunningServers } from '../../server/main/servers.ts';
import { startStack as startServerStack } from '../../server/test-support/stack.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The real server stack (API, embed host, examples host) on loopback ports, over a fresh
 * embedded database (`overrides` add to its environment). `npm run test:e2e` builds first; a bare `vitest --project e2e` builds the
 * embed only when there is none (a stale one is the runner's to rebuild).
 */
export function startStack(overrides: Record<string, string> = {}): Promise<RunningServers> {
  if (!existsSync(`${ROOT}/dist/embed/loader.js`)) {
    execSync('npm run build:embed --silent', { cwd: ROOT, stdio: 'inherit' });
  }
  return startServerStack({ RATE_LIMIT_SCALE: '10', ...overrides });
}

/**
 * Debian's Chromium (`apt-get install -y chromium`), never a downloaded browser. Pages answered
 * by `context.route` (see custom-page.ts) count as public to Chromium's Local Network Access
 * checks, which would then refuse the loopback stack: those specs pass LOCAL_NETWORK_ARGS.
 */
export const LOCAL_NETWORK_ARGS = [
  '--disable-features=LocalNetworkAccessChecks,BlockInsecurePrivateNetworkRequests',
];

export function launchChromium(extraArgs: string[] = []): Promise<Browser> {
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
      ...extraArgs,
    ],
  });
}
