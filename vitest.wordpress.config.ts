import { defineConfig } from 'vitest/config';

// The WordPress suite (`npm run test:wordpress`): a real WordPress, MariaDB and PHP next to the
// real svc stack. Not part of `npm test`; scripts/test-wordpress.mjs runs it.
export default defineConfig({
  test: {
    name: 'wordpress',
    environment: 'node',
    include: ['plugins/wordpress/tests/e2e/**/*.e2e.ts'],
    testTimeout: 90_000,
    hookTimeout: 180_000,
    fileParallelism: false,
    globalSetup: ['server/test-support/global-setup.ts'],
  },
});
