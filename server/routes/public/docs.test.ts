import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { API_DOCUMENTS } from '../openapi-documents.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('GET /docs', () => {
  it('names no other origin in its CSP, and never allows eval', async () => {
    const page = await t.get('/docs');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy') ?? '';
    const sources = csp.split(';').flatMap((directive) => directive.trim().split(/\s+/).slice(1));
    // Only keywords ('self', 'none', 'unsafe-inline') and data: for Scalar's icons.
    expect(sources.filter((s) => !/^'(self|none|unsafe-inline)'$/.test(s) && s !== 'data:')).toEqual([]);
    expect(csp).toContain("script-src 'self';");
    expect(csp).not.toContain('unsafe-eval');
    expect(csp).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('serves every asset it references itself', async () => {
    const html = await (await t.get('/docs')).text();
    expect(html).not.toMatch(/https?:\/\//);
    const assets = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]!);
    expect(assets).toEqual(['/docs/assets/scalar.js', '/docs/assets/init.js']);
    for (const src of assets) {
      const asset = await t.get(src);
      expect(asset.status, src).toBe(200);
      expect(asset.headers.get('content-type'), src).toMatch(/^text\/javascript/);
    }
  });

  it('points the reader at the three documents on this origin, with fonts, telemetry and agent off', async () => {
    const init = await (await t.get('/docs/assets/init.js')).text();
    const config = JSON.parse(init.slice(init.indexOf('{'), init.lastIndexOf('}') + 1));
    expect(config.sources.map((s: { url: string }) => s.url)).toEqual(API_DOCUMENTS.map((d) => d.path));
    for (const { url } of config.sources) expect((await t.get(url)).status, url).toBe(200);
    expect(config).toMatchObject({ withDefaultFonts: false, telemetry: false, agent: { disabled: true } });
  });
});
