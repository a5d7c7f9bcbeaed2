import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { portalPaths } from '../../../scripts/portal-paths.ts';

describe('server/routes/portal/paths.ts', () => {
  it('binds every portal route to its declared answer, as `npm run portal-paths` writes it', () => {
    const committed = readFileSync(new URL('./paths.ts', import.meta.url), 'utf8');
    expect(committed, 'run `npm run portal-paths` and commit the file').toBe(portalPaths());
  });
});
