import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { Hono } from 'hono';
import type { AppEnv } from '../../http/app-env.ts';
import { AppError } from '../../lib/errors.ts';
import { API_DOCUMENTS } from '../openapi-documents.ts';

const require = createRequire(import.meta.url);

/** Scalar's browser build: one file with its styles inside (Node 20 pins the 1.46 line; see package.json). */
const SCALAR_BUNDLE = require.resolve('@scalar/api-reference/browser/standalone.js');

// Served as a file, not inline, so the page works under its CSP (script-src 'self'). Scalar fetches
// fonts and reports telemetry to its own hosts by default, and offers an AI agent: all off, so the
// page talks to this origin only.
const INIT_SCRIPT = `Scalar.createApiReference('#docs', ${JSON.stringify({
  sources: API_DOCUMENTS.map((d, i) => ({ title: d.title, slug: d.slug, url: d.path, default: i === 0 })),
  withDefaultFonts: false,
  telemetry: false,
  agent: { disabled: true },
  showDeveloperTools: 'never',
  theme: 'default',
})});
`;

const ASSETS: Record<string, { type: string; load: () => Promise<Buffer | string> }> = {
  'scalar.js': { type: 'text/javascript; charset=utf-8', load: () => readFile(SCALAR_BUNDLE) },
  'init.js': { type: 'text/javascript; charset=utf-8', load: async () => INIT_SCRIPT },
};

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><div id="docs"></div>
<script src="/docs/assets/scalar.js"></script>
<script src="/docs/assets/init.js"></script></body></html>`;

/**
 * Scalar injects its styles at run time (hence 'unsafe-inline' for styles only) and draws icons as
 * data: images; it never needs eval, fonts or another origin.
 */
const DOCS_CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";

/** The API reference at /docs: Scalar from the installed package, no CDN, works offline. */
export function createDocsRoutes(): Hono<AppEnv> {
  const docs = new Hono<AppEnv>();
  const cache = new Map<string, Promise<Buffer | string>>();
  docs.get('/docs', (c) => {
    c.header('Content-Security-Policy', DOCS_CSP);
    return c.html(PAGE);
  });
  docs.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    // Own keys only: `constructor`, `__proto__` and `toString` are not files.
    const asset = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    // Thrown rather than c.notFound(): the route exists for GET, so the 405 logic must not answer.
    if (!asset) throw new AppError('NOT_FOUND', 'No such documentation asset.');
    // Read once: the bundle is 3.5 MB and never changes while the process runs.
    let body = cache.get(file);
    if (!body) {
      body = asset.load();
      cache.set(file, body);
      body.catch(() => cache.delete(file));
    }
    c.header('Cache-Control', 'public, max-age=3600');
    const bytes = await body;
    return c.body(typeof bytes === 'string' ? bytes : new Uint8Array(bytes), 200, {
      'Content-Type': asset.type,
    });
  });
  return docs;
}
