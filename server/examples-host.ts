import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Hono } from 'hono';
import { repoRoot } from './repo-root.ts';

const PAGES = new Set(['index.html', 'several.html', 'events.html', 'spa.html', 'wrong-key.html']);

/**
 * The examples host (`http://localhost:8789`): host pages a developer opens to try the widget.
 * A different origin from the API and the embed host, so the origin checks are real.
 */
export function createExamplesApp(opts: { apiUrl: string; embedUrl: string; demoLicenseKey: string }): Hono {
  const app = new Hono();
  app.get('/:page{[a-z-]+\\.html}?', (c) => {
    const page = c.req.param('page') ?? 'index.html';
    const file = join(repoRoot(), 'examples', page);
    if (!PAGES.has(page) || !existsSync(file)) {
      return c.json({ error: { code: 'NOT_FOUND', message: 'No such example.', status: 404 } }, 404);
    }
    const html = readFileSync(file, 'utf8')
      .replaceAll('{{API_URL}}', opts.apiUrl)
      .replaceAll('{{EMBED_URL}}', opts.embedUrl)
      .replaceAll('{{LICENSE_KEY}}', opts.demoLicenseKey);
    c.header('cache-control', 'no-cache');
    return c.html(html);
  });
  app.get('/examples.js', (c) => {
    const js = readFileSync(join(repoRoot(), 'examples', 'examples.js'), 'utf8');
    return c.body(js, 200, { 'content-type': 'text/javascript; charset=utf-8' });
  });
  app.notFound((c) =>
    c.json({ error: { code: 'NOT_FOUND', message: 'No such example.', status: 404 } }, 404),
  );
  return app;
}
