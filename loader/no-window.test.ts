// @vitest-environment node
import { expect, it } from 'vitest';

it('loads without a window (server-side rendering, workers) and does nothing', async () => {
  expect(typeof window).toBe('undefined');
  await expect(import('./main.ts')).resolves.toBeDefined();
});
