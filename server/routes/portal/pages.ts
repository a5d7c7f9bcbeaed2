import { existsSync, readFileSync } from 'node:fs';
import { extname, join, normalize } from 'node:path';
import { OpenAPIHono } from '@hono/zod-openapi';
import { optionAttributes, SNIPPET_OPTIONS } from '../../../portal/snippet.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { AppError } from '../../lib/errors.ts';
import { escapeHtml } from '../../lib/html.ts';
import { portalOriginFor, registerConsentPages } from '../oauth/consent-page.ts';

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff2': 'font/woff2',
};

const CALCULATOR = /^[a-z0-9-]{1,40}$/;
const KEY = /^[A-Za-z0-9_-]{1,120}$/;

/**
 * The portal app (built by Vite into dist/portal), served by the API listener: `/portal/...` and the two
 * consent pages (`/oauth/authorize`, `/oauth/authorize/mcp`; asked on the API's host, they go to the
 * portal's origin first) get the same index.html under a strict CSP (scripts,
 * styles and calls from this origin only; nothing inline). `/portal/preview` is the live-preview
 * host page: the real loader from the embed host on the portal's own origin (a development host).
 */
export function createPortalPageRoutes(opts: {
  distDir: string;
  apiUrl: string;
  embedUrl: string;
  /** Where the portal is served; its pages and the consent requests asked on the API's host go there. */
  portalUrl?: string;
}) {
  const router = new OpenAPIHono<AppEnv>();
  const embedOrigin = new URL(opts.embedUrl).origin;
  const appCsp = [
    "default-src 'none'",
    "script-src 'self'",
    "style-src 'self'",
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "frame-src 'self'",
    "form-action 'self'",
    "base-uri 'none'",
    "frame-ancestors 'none'",
  ].join('; ');
  const previewCsp = [
    "default-src 'none'",
    `script-src 'self' ${embedOrigin}`,
    `frame-src ${embedOrigin}`,
    `connect-src ${new URL(opts.apiUrl).origin}`,
    "style-src 'self'",
    "base-uri 'none'",
    "frame-ancestors 'self'",
  ].join('; ');
  const indexFile = join(opts.distDir, 'index.html');
  let cachedIndex: string | undefined;
  const index = () => {
    if (cachedIndex) return cachedIndex;
    if (!existsSync(indexFile))
      throw new AppError('SERVICE_UNAVAILABLE', 'The portal is not built; run `npm run build`.');
    cachedIndex = readFileSync(indexFile, 'utf8');
    return cachedIndex;
  };
  const page = (html: string, csp: string) =>
    new Response(html, {
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'content-security-policy': csp,
        'cache-control': 'no-store',
        'referrer-policy': 'no-referrer',
        'x-content-type-options': 'nosniff',
      },
    });

  const hosts = opts.portalUrl ? { apiUrl: opts.apiUrl, portalUrl: opts.portalUrl } : undefined;
  // Asked on the API's host, a portal page goes to the portal's origin: its sign-in works only there.
  for (const path of ['/portal', '/portal/*'])
    router.get(path, async (c, next) => {
      const url = new URL(c.req.url);
      const portal = portalOriginFor(url.host, hosts);
      if (!portal) return next();
      c.header('Cache-Control', 'no-store');
      return c.redirect(`${portal}${url.pathname}${url.search}`, 302);
    });
  router.get('/portal/preview', (c) => {
    // Every chosen calculator (`calculators=a,b`, or the older `calculator=a`), with the options the
    // Embed code page's table offers, as its snippet writes them (values outside the table's
    // patterns are dropped there, so nothing else reaches the page).
    const calculators = (c.req.query('calculators') ?? c.req.query('calculator') ?? 'estate-tax').split(',');
    const key = c.req.query('key') ?? '';
    if (calculators.length > 5 || !calculators.every((slug) => CALCULATOR.test(slug)) || !KEY.test(key))
      throw new AppError('INVALID_REQUEST', 'calculator and key are required.');
    const chosen = Object.fromEntries(SNIPPET_OPTIONS.map((o) => [o.option, c.req.query(o.option) ?? '']));
    // A dark theme is previewed on a dark page, as it suits a site with a dark background.
    const divs = calculators.map((slug) => `<div data-svc-calculator="${escapeHtml(slug)}"></div>`).join('');
    const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Widget preview</title><link rel="stylesheet" href="/portal/preview.css"></head>
<body${chosen.theme === 'dark' ? ' class="dark"' : ''}>${divs}
<script src="/portal/preview.js"></script>
<script src="${escapeHtml(embedOrigin)}/loader.js" data-key="${escapeHtml(key)}" data-api="${escapeHtml(opts.apiUrl)}"${optionAttributes(chosen)} async></script>
</body></html>`;
    return page(html, previewCsp);
  });
  router.get('/portal/*', (c) => {
    const path = c.req.path.slice('/portal/'.length);
    const ext = extname(path);
    if (ext && TYPES[ext]) {
      const file = normalize(join(opts.distDir, path));
      if (!file.startsWith(opts.distDir) || !existsSync(file))
        throw new AppError('NOT_FOUND', 'No such file.');
      const hashed = path.startsWith('assets/');
      return c.body(readFileSync(file), 200, {
        'content-type': TYPES[ext],
        'cache-control': hashed ? 'public, max-age=31536000, immutable' : 'no-cache',
        'x-content-type-options': 'nosniff',
      });
    }
    return page(index(), appCsp);
  });
  router.get('/portal', (c) => c.redirect('/portal/', 308));
  registerConsentPages(router, () => page(index(), appCsp), hosts);
  return router;
}
