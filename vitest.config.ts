import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';

// The test projects (vitest finds this file by its name). The browser build (dist/embed, dist/portal)
// is not configured here: scripts/build.mjs calls vite's API for it (`npm run build`).
// Node code (calculators, protocol, server) and browser-ish code (loader, widget) run in separate
// vitest projects; e2e specs drive Debian's Chromium through playwright-core against built assets.
export default defineConfig({
  test: {
    // skip-reporter: every skip listed at the end; with CI=true any skip fails the run.
    // slowest-reporter: with SVC_SLOWEST=n, the n slowest files (npm test sets it).
    reporters: [
      'default',
      './server/test-support/skip-reporter.ts',
      './server/test-support/slowest-reporter.ts',
    ],
    // Two workers on CI's 2 cores (vitest's default would be one: cores − 1). The unit suite is
    // CPU-bound (770 s of CPU in 854 s of wall in `npm test`, 2026-11-28), so one worker left a
    // core idle once the e2e suite had finished.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: [
            'calculators/**/*.test.ts',
            'protocol/**/*.test.ts',
            'server/**/*.test.ts',
            'bench/**/*.test.ts',
          ],
          testTimeout: 30_000,
          hookTimeout: 60_000,
          pool: 'forks',
          // A worker process runs file after file without starting afresh: each file used to
          // import the server anew (hono, zod-openapi, drizzle, PGlite: 148 s of the suite's CPU),
          // now each worker imports it once. Files still get their own app, database and clock;
          // what a file changes globally (env, timers, mocks) it restores. Measured alone with two
          // workers: 409 s wall and 745 s CPU isolated, 257 s and 453 s not.
          isolate: false,
          // PGlite's WebAssembly at V8's baseline compiler only (compiled-server.ts says why).
          execArgv: ['--liftoff-only'],
          globalSetup: ['server/test-support/global-setup.ts', 'server/test-support/compile-setup.ts'],
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'happy-dom',
          include: [
            'loader/**/*.test.ts',
            'widget/**/*.test.{ts,tsx}',
            'sdk/**/*.test.ts',
            'portal/**/*.test.{ts,tsx}',
          ],
        },
      },
      {
        test: {
          name: 'e2e',
          environment: 'node',
          include: ['e2e/**/*.spec.ts'],
          testTimeout: 60_000,
          hookTimeout: 90_000,
          fileParallelism: false,
          // As in the node project: one process imports the stack once for all the specs.
          isolate: false,
          globalSetup: ['server/test-support/global-setup.ts'],
        },
      },
    ],
  },
});
