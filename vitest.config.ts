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
          // One worker on CI's 2 cores (vitest's default). Three cut six wait-bound server files
          // from 371 s to 215 s alone, but beside the e2e suite in `npm test` they starved the
          // timing-bound tests (leases, shutdown bounds, proof-of-work floods) and made e2e twice
          // as slow (CI run of 2026-11-25: unit 1,350 s, e2e 1,182 s, six timing failures).
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
          globalSetup: ['server/test-support/global-setup.ts'],
        },
      },
    ],
  },
});
