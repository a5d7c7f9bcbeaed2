import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createEmbedApp } from './embed-host.ts';
import { createExamplesApp } from './examples-host.ts';

function dist() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-dist-'));
  mkdirSync(join(dir, 'w'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'loader.js'), 'var api="__SVC_API_URL__";');
  writeFileSync(join(dir, 'w', 'rmd.html'), '<!doctype html><div id="app"></div>');
  writeFileSync(join(dir, 'assets', 'main-abc123.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'svc-secret.txt'), 'secret');
  return dir;
}

describe('embed host', () => {
  const app = createEmbedApp({ distDir: dist(), apiUrl: 'https://api.svc.test' });

  it('serves loader.js with the API URL written in, cacheable and loadable from any origin', async () => {
    const res = await app.request('/loader.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe('var api="https://api.svc.test";');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toContain('max-age=300');
  });

  it('serves widget pages with a strict CSP and hashed assets as immutable', async () => {
    const page = await app.request('/w/rmd.html');
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain('connect-src https://api.svc.test');
    expect(csp).toContain('frame-ancestors *');
    expect(csp).not.toContain('unsafe-inline');
    const asset = await app.request('/assets/main-abc123.js');
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it.each(['/nope.js', '/../svc-secret.txt', '/%2e%2e/svc-secret.txt', '/w/%E0%A4%A.html', '/'])(
    'answers %s with a JSON 404',
    async (path) => {
      const res = await app.request(path);
      expect(res.status).toBe(404);
      expect((await res.json()).error.code).toBe('NOT_FOUND');
    },
  );
});

describe('examples host', () => {
  const app = createExamplesApp({
    apiUrl: 'http://api.test',
    embedUrl: 'http://embed.test',
    demoLicenseKey: 'SVC-DEMO',
  });

  it('fills the placeholders of the example pages', async () => {
    const html = await (await app.request('/')).text();
    expect(html).toContain('src="http://embed.test/loader.js"');
    expect(html).toContain('data-key="SVC-DEMO"');
    expect(html).not.toContain('{{');
    expect((await app.request('/events.html')).status).toBe(200);
    expect((await app.request('/missing.html')).status).toBe(404);
  });
});
