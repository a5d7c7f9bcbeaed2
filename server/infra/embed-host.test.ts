import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { createEmbedApp, inlineStyleHashes } from './embed-host.ts';

const LOADER = `var api="__SVC_API_URL__";${' '.repeat(600)}`;
const PAGE_CSS = ':root{--accent:#1f4e79}body{margin:0}';

function dist() {
  const dir = mkdtempSync(join(tmpdir(), 'svc-dist-'));
  mkdirSync(join(dir, 'w'));
  mkdirSync(join(dir, 'assets'));
  writeFileSync(join(dir, 'loader.js'), LOADER);
  writeFileSync(join(dir, 'w', 'rmd.html'), `<!doctype html><style>${PAGE_CSS}</style><div id="app"></div>`);
  writeFileSync(join(dir, 'assets', 'main-abc123.js'), 'console.log(1)');
  writeFileSync(join(tmpdir(), 'svc-secret.txt'), 'secret');
  return dir;
}

describe('embed host', () => {
  const distDir = dist();
  const app = createEmbedApp({ distDir, apiUrl: 'https://api.svc.test' });
  const expectedLoader = LOADER.replace('__SVC_API_URL__', 'https://api.svc.test');

  it('serves loader.js with the API URL written in, cacheable and loadable from any origin', async () => {
    const res = await app.request('/loader.js');
    expect(res.status).toBe(200);
    expect(await res.text()).toBe(expectedLoader);
    expect(res.headers.get('content-type')).toContain('text/javascript');
    expect(res.headers.get('access-control-allow-origin')).toBe('*');
    expect(res.headers.get('cache-control')).toContain('max-age=300');
  });

  it('answers a matching If-None-Match with 304', async () => {
    const etag = (await app.request('/loader.js')).headers.get('etag')!;
    const res = await app.request('/loader.js', { headers: { 'if-none-match': etag } });
    expect(res.status).toBe(304);
    expect(await res.text()).toBe('');
  });

  it.each([
    ['br', 'br'],
    ['gzip, deflate', 'gzip'],
    ['gzip, br', 'br'],
    ['identity', null],
  ])('compresses for Accept-Encoding %s', async (accept, encoding) => {
    const res = await app.request('/loader.js', { headers: { 'accept-encoding': accept } });
    expect(res.headers.get('content-encoding')).toBe(encoding);
    expect(res.headers.get('vary')).toContain('accept-encoding');
    if (encoding === 'gzip') {
      expect(gunzipSync(Buffer.from(await res.arrayBuffer())).toString()).toBe(expectedLoader);
    }
  });

  it('serves widget pages with a strict CSP that any site may frame', async () => {
    const page = await app.request('/w/rmd.html');
    expect(page.status).toBe(200);
    const csp = page.headers.get('content-security-policy')!;
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("style-src 'self'");
    expect(csp).toContain('connect-src https://api.svc.test');
    expect(csp).toContain('frame-ancestors *');
    expect(csp).not.toContain('unsafe');
    // The page's inline stylesheet by its hash, and nothing else inline.
    const hash = createHash('sha256').update(PAGE_CSS).digest('base64');
    expect(csp).toContain(`style-src 'self' 'sha256-${hash}';`);
    expect(page.headers.get('x-frame-options')).toBeNull();
    expect(page.headers.get('cache-control')).toBe('no-cache');
  });

  it('hashes each inline stylesheet exactly as written, so an altered one is refused', () => {
    const [a] = inlineStyleHashes('<style>body{margin:0}</style>');
    const [b] = inlineStyleHashes('<style>body{margin:0} </style>');
    expect(a).toMatch(/^'sha256-[A-Za-z0-9+/]+=*'$/);
    expect(b).not.toBe(a);
    expect(inlineStyleHashes('<p>no style</p>')).toEqual([]);
  });

  it('serves hashed assets as immutable', async () => {
    const asset = await app.request('/assets/main-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toContain('immutable');
  });

  it.each([
    '/nope.js',
    '/../svc-secret.txt',
    '/%2e%2e/svc-secret.txt',
    '/w/..%2f..%2fsvc-secret.txt',
    '/w/%E0%A4%A.html',
    '/w/',
    '/',
  ])('answers %s with a JSON 404', async (path) => {
    const res = await app.request(path);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({
      error: { code: 'NOT_FOUND', message: expect.any(String), status: 404 },
    });
  });

  it('answers other methods with 405', async () => {
    const res = await app.request('/loader.js', { method: 'POST' });
    expect(res.status).toBe(405);
    expect((await res.json()).error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers HEAD like GET, without a body', async () => {
    const res = await app.request('/loader.js', { method: 'HEAD' });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBeTruthy();
    expect(await res.text()).toBe('');
  });

  it('finds files built after it started', async () => {
    const late = mkdtempSync(join(tmpdir(), 'svc-dist-late-'));
    const fresh = createEmbedApp({ distDir: late, apiUrl: 'https://api.svc.test', rescanMs: 0 });
    expect((await fresh.request('/loader.js')).status).toBe(404);
    writeFileSync(join(late, 'loader.js'), 'x');
    expect((await fresh.request('/loader.js')).status).toBe(200);
  });
});
