import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize, sep } from 'node:path';
import { Hono } from 'hono';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
  '.map': 'application/json',
};

const notFound = () =>
  new Response(
    JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such embed asset.', status: 404 } }),
    {
      status: 404,
      headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' },
    },
  );

/**
 * The embed host: `loader.js` (short cache, any origin may load it), the widget pages (strict
 * CSP; framing is open to any site because the token handshake, not the frame, is the gate) and
 * their content-hashed assets (immutable). Files are read once and kept in memory.
 */
export function createEmbedApp(opts: { distDir: string; apiUrl: string }): Hono {
  const app = new Hono();
  const root = normalize(opts.distDir) + sep;
  const cache = new Map<string, Buffer | null>();
  const apiOrigin = new URL(opts.apiUrl).origin;
  const pageCsp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${apiOrigin}`,
    "img-src 'self' data:",
    'frame-ancestors *',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');

  function read(path: string): Buffer | null {
    if (!cache.has(path)) {
      const file = normalize(join(root, path));
      const inside = file.startsWith(root) && existsSync(file);
      let body = inside ? readFileSync(file) : null;
      if (body && path === 'loader.js')
        body = Buffer.from(body.toString('utf8').replaceAll('__SVC_API_URL__', opts.apiUrl));
      cache.set(path, body);
    }
    return cache.get(path) ?? null;
  }

  app.get('/*', (c) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path).replace(/^\/+/, '');
    } catch {
      return notFound();
    }
    if (path === '' || path.includes('\0') || path.split('/').includes('..')) return notFound();
    const body = read(path);
    if (!body) return notFound();
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'x-content-type-options': 'nosniff',
      'cross-origin-resource-policy': 'cross-origin',
    };
    if (path === 'loader.js') {
      headers['cache-control'] = 'public, max-age=300';
      headers['access-control-allow-origin'] = '*';
    } else if (path.startsWith('assets/')) {
      headers['cache-control'] = 'public, max-age=31536000, immutable';
      headers['access-control-allow-origin'] = '*';
    } else if (path.endsWith('.html')) {
      headers['cache-control'] = 'no-cache';
      headers['content-security-policy'] = pageCsp;
      headers['referrer-policy'] = 'no-referrer';
    }
    return c.body(new Uint8Array(body), 200, headers);
  });
  return app;
}
