import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { extname, join, relative, sep } from 'node:path';
import { brotliCompressSync, gzipSync } from 'node:zlib';
import { Hono } from 'hono';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.ts': 'text/plain; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.html': 'text/html; charset=utf-8',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};
const COMPRESSIBLE = new Set(['.js', '.mjs', '.ts', '.css', '.html', '.json', '.svg']);
/** A missing file is looked for again at most this often, so a fresh build shows up without a restart. */
const RESCAN_MS = 2_000;

interface Asset {
  type: string;
  body: Buffer;
  /** Compressed on first request and kept (brotli at its best level costs about 0.1 s per asset). */
  compressible: boolean;
  gzip?: Buffer;
  br?: Buffer;
  etag: string;
  /** Widget pages: the `'sha256-…'` sources of their inline `<style>` elements, for the CSP. */
  styleHashes?: string[];
}

function compressed(asset: Asset, encoding: 'br' | 'gzip'): Buffer {
  if (encoding === 'br') asset.br ??= brotliCompressSync(asset.body);
  else asset.gzip ??= gzipSync(asset.body, { level: 9 });
  return encoding === 'br' ? asset.br! : asset.gzip!;
}

const notFound = () =>
  new Response(
    JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such embed asset.', status: 404 } }),
    { status: 404, headers: { 'content-type': 'application/json', 'x-content-type-options': 'nosniff' } },
  );

function walk(dir: string): string[] {
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return []; // not built yet
  }
  return names.flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? walk(path) : [path];
  });
}

/** CSP hash sources for each `<style>` element of a page (its exact text, as the browser hashes it). */
export function inlineStyleHashes(html: string): string[] {
  return [...html.matchAll(/<style>([\s\S]*?)<\/style>/g)].map(
    (m) => `'sha256-${createHash('sha256').update(m[1]!, 'utf8').digest('base64')}'`,
  );
}

/**
 * Every file under `distDir`, read once, keyed by its URL path; nothing outside it can be named.
 * An unchanged file keeps its asset from the previous scan, compressed copies included, so a
 * rescan costs a read and a hash per file.
 */
function scan(distDir: string, apiUrl: string, previous?: Map<string, Asset>): Map<string, Asset> {
  const assets = new Map<string, Asset>();
  for (const file of walk(distDir)) {
    const path = relative(distDir, file).split(sep).join('/');
    const ext = extname(path);
    let body = readFileSync(file);
    if (path === 'loader.js') body = Buffer.from(body.toString('utf8').replaceAll('__SVC_API_URL__', apiUrl));
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 22)}"`;
    const before = previous?.get(path);
    assets.set(
      path,
      before?.etag === etag
        ? before
        : {
            type: TYPES[ext] ?? 'application/octet-stream',
            body,
            compressible: COMPRESSIBLE.has(ext) && body.length > 512,
            etag,
            ...(ext === '.html' ? { styleHashes: inlineStyleHashes(body.toString('utf8')) } : {}),
          },
    );
  }
  return assets;
}

function headersFor(path: string, asset: Asset, pageCsp: string): Record<string, string> {
  const headers: Record<string, string> = {
    'content-type': asset.type,
    etag: asset.etag,
    vary: 'accept-encoding',
    'x-content-type-options': 'nosniff',
    'cross-origin-resource-policy': 'cross-origin',
  };
  if (path === 'loader.js' || path === 'embed.mjs' || path === 'embed.d.ts') {
    // A stable URL on every firm's pages: short cache, revalidated by ETag.
    headers['cache-control'] = 'public, max-age=300, stale-while-revalidate=3600';
    headers['access-control-allow-origin'] = '*';
  } else if (path.startsWith('assets/')) {
    headers['cache-control'] = 'public, max-age=31536000, immutable';
    headers['access-control-allow-origin'] = '*';
  } else {
    headers['cache-control'] = 'no-cache';
  }
  if (path.endsWith('.html')) {
    // The page's own stylesheet is inline, allowed by its hash alone (never 'unsafe-inline').
    headers['content-security-policy'] = pageCsp.replace(
      "style-src 'self'",
      ["style-src 'self'", ...(asset.styleHashes ?? [])].join(' '),
    );
    headers['referrer-policy'] = 'no-referrer';
  }
  return headers;
}

/**
 * The embed host: `loader.js` (short cache, any origin may load it, the API URL written in), the
 * widget pages (strict CSP; any site may frame them, because the token handshake, not the
 * frame, is the gate) and their content-hashed assets (immutable). Files are served from an
 * in-memory index of `distDir`, precompressed, with ETags.
 */
export function createEmbedApp(opts: { distDir: string; apiUrl: string; rescanMs?: number }): Hono {
  const app = new Hono();
  const pageCsp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    `connect-src ${new URL(opts.apiUrl).origin}`,
    "img-src 'self' data: blob:",
    'frame-ancestors *',
    "base-uri 'none'",
    "form-action 'none'",
  ].join('; ');
  let assets = scan(opts.distDir, opts.apiUrl);
  let scannedAt = Date.now();

  function find(path: string): Asset | undefined {
    const hit = assets.get(path);
    if (hit || Date.now() - scannedAt < (opts.rescanMs ?? RESCAN_MS)) return hit;
    assets = scan(opts.distDir, opts.apiUrl, assets);
    scannedAt = Date.now();
    return assets.get(path);
  }

  app.get('/*', (c) => {
    let path: string;
    try {
      path = decodeURIComponent(c.req.path).replace(/^\/+/, '');
    } catch {
      return notFound();
    }
    const asset = path ? find(path) : undefined;
    if (!asset) return notFound();
    const headers = headersFor(path, asset, pageCsp);
    if (c.req.header('if-none-match') === asset.etag) return c.body(null, 304, headers);
    const accepts = c.req.header('accept-encoding') ?? '';
    const encoding = !asset.compressible
      ? undefined
      : /\bbr\b/.test(accepts)
        ? 'br'
        : /\bgzip\b/.test(accepts)
          ? 'gzip'
          : undefined;
    if (encoding) headers['content-encoding'] = encoding;
    const body = encoding ? compressed(asset, encoding) : asset.body;
    return c.body(new Uint8Array(body), 200, headers);
  });
  app.all('/*', (c) =>
    c.json(
      { error: { code: 'METHOD_NOT_ALLOWED', message: 'The embed host serves GET only.', status: 405 } },
      405,
      {
        allow: 'GET, HEAD',
      },
    ),
  );
  return app;
}
