import type { AddressInfo } from 'node:net';
import { serve } from '@hono/node-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createApp } from '../../main/app.ts';
import { coreDeps } from '../../test-support/app.ts';
import { createRouter } from '../openapi-router.ts';

/** Routes of every kind of answer: Hono helpers, a route's own Response, immutable headers, errors. */
function router() {
  const r = createRouter();
  r.get('/api/json', (c) => c.json({ ok: true }));
  r.get('/api/raw', () => new Response('raw', { headers: { 'content-type': 'text/plain' } }));
  r.get('/api/page', (c) =>
    c.html('<p>page</p>', 200, {
      'Content-Security-Policy': "default-src 'self'",
      'X-Frame-Options': 'DENY',
    }),
  );
  r.get('/api/moved', () => Response.redirect('https://elsewhere.example/to', 302));
  r.get(
    '/api/stream',
    () => new Response(new Blob(['a', 'b']).stream(), { headers: { 'content-type': 'text/plain' } }),
  );
  r.get('/api/boom', () => {
    throw new Error('boom');
  });
  return r;
}

const makeApp = () =>
  createApp(
    coreDeps(
      { v1Routes: [router()] },
      {
        RATE_LIMIT_SCALE: '0.1',
        PUBLIC_EMBED_URL: 'https://embed.example',
        CORS_ORIGINS: 'https://firm.example',
      },
    ),
  );

/** Header name → value, lower-cased names, without what differs by transport or by the second. */
function comparable(headers: Headers): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [name, value] of headers)
    if (
      !/^(date|connection|keep-alive|content-length|transfer-encoding|x-request-id|x-ratelimit-reset|ratelimit)$/.test(
        name,
      )
    )
      out[name] = value;
  return out;
}

const REQUESTS: [string, RequestInit][] = [
  ['/v1/api/json', { headers: { origin: 'https://embed.example' } }],
  ['/v1/api/json', { headers: { origin: 'https://stranger.example' } }],
  ['/v1/api/raw', {}],
  ['/v1/api/page', {}],
  ['/v1/api/moved', { redirect: 'manual' }],
  ['/v1/api/stream', {}],
  ['/v1/api/boom', {}],
  ['/v1/api/nowhere', { headers: { origin: 'https://firm.example' } }],
  [
    '/v1/api/json',
    {
      method: 'OPTIONS',
      headers: { origin: 'https://firm.example', 'access-control-request-method': 'GET' },
    },
  ],
  [
    // No licensing routes in this app: a 404, with the open path's CORS.
    '/v1/api/license/activate',
    {
      method: 'POST',
      headers: { origin: 'https://any.example', 'content-type': 'application/json' },
      body: '{',
    },
  ],
  ['/v1/api/raw', { headers: { origin: 'https://firm.example' } }],
  ['/v1/api/page', { headers: { origin: 'https://firm.example' } }],
  ['/v1/api/json', { headers: { origin: 'https://firm.example' } }],
  // The default group allows 11 a minute at this scale: from here on, 429s.
  ['/v1/api/json', { headers: { origin: 'https://embed.example' } }],
  ['/v1/api/json', { headers: { origin: 'https://embed.example' } }],
];

/**
 * Under the node server the common headers go onto the outgoing message; in-process they go onto
 * the answer's header list (`addHeaders`). Two identical apps, one behind a real server, get the
 * same requests: every answer must carry the same headers with the same values either way.
 */
describe('response headers, real server and in-process', () => {
  const served = makeApp();
  const local = makeApp();
  let server: ReturnType<typeof serve>;
  let base: string;
  beforeAll(async () => {
    await new Promise<void>((resolve) => {
      server = serve({ fetch: served.fetch, hostname: '127.0.0.1', port: 0 }, () => resolve());
    });
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('are the same, answer for answer, including pages with their own CSP, redirects, errors and 429s', async () => {
    const statuses: number[] = [];
    for (const [path, init] of REQUESTS) {
      const overHttp = await fetch(`${base}${path}`, init);
      const inProcess = await local.request(path, init);
      await overHttp.arrayBuffer();
      await inProcess.arrayBuffer();
      expect(overHttp.status, path).toBe(inProcess.status);
      expect(comparable(overHttp.headers), `${init.method ?? 'GET'} ${path}`).toEqual(
        comparable(inProcess.headers),
      );
      expect(overHttp.headers.get('x-request-id'), path).toMatch(/^[\w-]{8,}$/);
      statuses.push(overHttp.status);
      if (path === '/v1/api/page') {
        // A page keeps its own CSP and frame rule, and gets the rest.
        expect(overHttp.headers.get('content-security-policy')).toBe("default-src 'self'");
        expect(overHttp.headers.get('x-frame-options')).toBe('DENY');
        expect(overHttp.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
      }
    }
    // The cases above really are the kinds of answer named.
    expect(statuses).toEqual([200, 200, 200, 200, 302, 200, 500, 404, 204, 404, 200, 200, 429, 429, 429]);
  });
});
