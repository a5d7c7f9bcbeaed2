import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { Hono } from 'hono';
import type { AppEnv } from '../http/app-env.ts';
import { AppError } from '../lib/errors.ts';

const require = createRequire(import.meta.url);
const SWAGGER_DIR = require('swagger-ui-dist/absolute-path.js')() as string;

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'swagger-ui-standalone-preset.js': 'text/javascript; charset=utf-8',
};

// Served as a file, not inline, so the page works under the server's own CSP (script-src 'self').
const INIT_SCRIPT = `window.addEventListener('load', function () {
  window.ui = SwaggerUIBundle({ url: '/v1/openapi.json', dom_id: '#docs', deepLinking: true,
    presets: [SwaggerUIBundle.presets.apis], layout: 'BaseLayout' });
});
`;

const PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>svc API reference</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="/docs/assets/swagger-ui.css"></head>
<body><div id="docs"></div>
<script src="/docs/assets/swagger-ui-bundle.js"></script>
<script src="/docs/assets/init.js"></script></body></html>`;

/** The API reference at /docs: Swagger UI from the installed package, no CDN, works offline. */
export function createDocsRoutes(): Hono<AppEnv> {
  const docs = new Hono<AppEnv>();
  const csp =
    "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'";
  docs.get('/docs', (c) => {
    c.header('Content-Security-Policy', csp);
    return c.html(PAGE);
  });
  docs.get('/docs/assets/init.js', (c) => {
    c.header('Cache-Control', 'public, max-age=3600');
    return c.body(INIT_SCRIPT, 200, { 'Content-Type': 'text/javascript; charset=utf-8' });
  });
  docs.get('/docs/assets/:file', async (c) => {
    const file = c.req.param('file');
    // Own keys only: `constructor`, `__proto__` and `toString` are not files.
    const type = Object.hasOwn(ASSETS, file) ? ASSETS[file] : undefined;
    // Thrown rather than c.notFound(): the route exists for GET, so the 405 logic must not answer.
    if (!type) throw new AppError('NOT_FOUND', 'No such documentation asset.');
    const body = await readFile(join(SWAGGER_DIR, file));
    c.header('Cache-Control', 'public, max-age=86400');
    return c.body(body, 200, { 'Content-Type': type });
  });
  return docs;
}
