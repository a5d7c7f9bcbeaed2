import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { snippetOf } from '../../portal/snippet.ts';
import { escapeHtml } from '../lib/html.ts';
import { repoRoot } from './repo-root.ts';

/** The example host pages, by URL path. */
export const EXAMPLE_PAGES = [
  'index.html',
  'several.html',
  'events.html',
  'spa.html',
  'wrong-key.html',
  'raw-postmessage.html',
] as const;

const ASSETS = new Map([
  ['examples.js', 'text/javascript; charset=utf-8'],
  ['raw.js', 'text/javascript; charset=utf-8'],
  ['examples.css', 'text/css; charset=utf-8'],
]);

const notFound = () =>
  new Response(JSON.stringify({ error: { code: 'NOT_FOUND', message: 'No such example.', status: 404 } }), {
    status: 404,
    headers: { 'content-type': 'application/json' },
  });

/**
 * The examples host (`http://localhost:8789`): host pages a developer opens to try the widget,
 * on an origin different from the API's and the embed host's, so the origin checks are real.
 * The pages are served under the strict CSP a careful firm would use (no inline script or
 * style; scripts from itself and the embed host, frames from the embed host, calls to the
 * API), which shows that the loader needs nothing more.
 */
export function createExamplesApp(opts: {
  apiUrl: string;
  embedUrl: string;
  /** The demo license's publishable key: the only key that belongs in a page. */
  demoPublishableKey: string;
}): Hono {
  const app = new Hono();
  const dir = join(repoRoot(), 'examples');
  const embedOrigin = new URL(opts.embedUrl).origin;
  const csp = [
    "default-src 'none'",
    `script-src 'self' ${embedOrigin}`,
    `frame-src ${embedOrigin}`,
    `connect-src ${new URL(opts.apiUrl).origin}`,
    "style-src 'self'",
    "img-src 'self'",
    "base-uri 'none'",
    "form-action 'self'",
  ].join('; ');
  const fill = (html: string) =>
    html
      .replaceAll('{{API_URL}}', escapeHtml(opts.apiUrl))
      .replaceAll('{{EMBED_URL}}', escapeHtml(opts.embedUrl))
      .replaceAll('{{PUBLISHABLE_KEY}}', escapeHtml(opts.demoPublishableKey))
      // The snippet as the portal's Embed code page writes it, room for the calculator included.
      .replaceAll(
        '{{SNIPPET}}',
        escapeHtml(snippetOf(opts.embedUrl, opts.demoPublishableKey, ['estate-tax'])),
      );

  app.get('/:page?', (c) => {
    const page = c.req.param('page') ?? 'index.html';
    const asset = ASSETS.get(page);
    if (asset) {
      return c.body(readFileSync(join(dir, page), 'utf8'), 200, {
        'content-type': asset,
        'cache-control': 'no-cache',
        'x-content-type-options': 'nosniff',
      });
    }
    if (!(EXAMPLE_PAGES as readonly string[]).includes(page)) return notFound();
    // Read on each request: these pages are for editing and reloading.
    return c.html(fill(readFileSync(join(dir, page), 'utf8')), 200, {
      'cache-control': 'no-cache',
      'content-security-policy': csp,
      'x-content-type-options': 'nosniff',
    });
  });
  app.notFound(notFound);
  return app;
}
