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
          // vitest's default is one worker fewer than the cores: 1 on CI's 2, one file at a time,
          // although most of these files wait on child servers, PostgreSQL and delivery timers.
          // Six wait-bound server files: 371 s wall / 66 s CPU with 1 worker, 215 s / 72 s with 3.
          maxWorkers: 3,
          globalSetup: ['server/test-support/global-setup.ts'],
        },
      },
      {
        test: {
          name: 'browser',
          environment: 'happy-dom',
          // The same worker count as the node project: vitest runs two projects side by side only
          // when they agree on it (otherwise it asks for a sequence.groupOrder per project).
          maxWorkers: 3,
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
          globalSetup: ['server/test-support/global-setup.ts'],
        },
      },
    ],
  },
});
