import { createRoute, z } from '@hono/zod-openapi';
import { describe, expect, it } from 'vitest';
import { createRouter } from '../http/openapi-router.ts';
import { coreDeps } from '../test-support/app.ts';
import { createApp } from './app.ts';

function echoRouter() {
  const router = createRouter();
  router.openapi(
    createRoute({
      method: 'post',
      path: '/api/echo',
      request: {
        body: { content: { 'application/json': { schema: z.object({ name: z.string().min(1) }) } } },
      },
      responses: {
        200: {
          description: 'echo',
          content: { 'application/json': { schema: z.object({ name: z.string() }) } },
        },
      },
    }),
    (c) => c.json({ name: c.req.valid('json').name }, 200),
  );
  // As MCP and streamed answers do: a Response of the route's own, not made through Hono's helpers.
  router.get('/api/raw', () => new Response('raw', { headers: { 'content-type': 'text/plain' } }));
  // Its headers are immutable: the answer is copied before headers are added, never a 500.
  router.get('/api/moved', () => Response.redirect('https://elsewhere.example/to', 302));
  router.get('/api/boom', () => {
    throw new Error('secret database password in stack');
  });
  router.get('/api/db-down', () => {
    throw new Error('Failed query', {
      cause: Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }),
    });
  });
  return router;
}

const app = createApp(coreDeps({ v1Routes: [echoRouter()] }));
const post = (
  path: string,
  body: BodyInit,
  headers: Record<string, string> = { 'content-type': 'application/json' },
) => app.request(path, { method: 'POST', body, headers });

describe('error mapping', () => {
  it.each([
    ['unknown route', () => app.request('/nope'), 404, 'NOT_FOUND'],
    ['unknown v1 route', () => app.request('/v1/api/nope'), 404, 'NOT_FOUND'],
    ['wrong method', () => app.request('/v1/api/echo'), 405, 'METHOD_NOT_ALLOWED'],
    ['malformed JSON', () => post('/v1/api/echo', '{"name":'), 400, 'INVALID_REQUEST'],
    ['schema violation', () => post('/v1/api/echo', '{"name":""}'), 400, 'INVALID_REQUEST'],
    ['empty body', () => post('/v1/api/echo', ''), 400, 'INVALID_REQUEST'],
    [
      'wrong content type',
      () => post('/v1/api/echo', 'name=x', { 'content-type': 'text/plain' }),
      415,
      'UNSUPPORTED_MEDIA_TYPE',
    ],
    ['missing content type', () => post('/v1/api/echo', '{"name":"x"}', {}), 415, 'UNSUPPORTED_MEDIA_TYPE'],
    [
      'oversized body',
      () => post('/v1/api/echo', JSON.stringify({ name: 'x'.repeat(70_000) })),
      413,
      'PAYLOAD_TOO_LARGE',
    ],
    ['unexpected error', () => app.request('/v1/api/boom'), 500, 'INTERNAL_ERROR'],
    ['database unreachable', () => app.request('/v1/api/db-down'), 503, 'SERVICE_UNAVAILABLE'],
  ])('%s → %i %s', async (_name, call, status, code) => {
    const res = await call();
    expect(res.status).toBe(status);
    expect(res.headers.get('content-type')).toMatch(/application\/json/);
    const body = await res.json();
    expect(body.error).toMatchObject({ code, status });
    expect(typeof body.error.message).toBe('string');
    expect(JSON.stringify(body)).not.toMatch(/secret|stack|at .*\.ts/);
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('x-request-id')).toBeTruthy();
  });

  it('names the allowed methods on a 405', async () => {
    const res = await app.request('/v1/api/echo', { method: 'DELETE' });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
  });

  it('gives field-level details for validation failures', async () => {
    const body = await (await post('/v1/api/echo', '{"name":42}')).json();
    expect(body.error.details).toEqual([expect.objectContaining({ path: 'name' })]);
  });
});

describe('routing', () => {
  it('serves /api/... as an alias of /v1/api/...', async () => {
    const res = await post('/api/echo', '{"name":"Zoë"}');
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ name: 'Zoë' });
  });

  it('keeps a caller-supplied request id and makes one otherwise', async () => {
    const mine = await app.request('/readyz', { headers: { 'x-request-id': 'abc-123' } });
    expect(mine.headers.get('x-request-id')).toBe('abc-123');
    const made = await app.request('/readyz');
    expect(made.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('sets security headers', async () => {
    const res = await app.request('/readyz');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    expect(res.headers.get('strict-transport-security')).toContain('max-age');
  });
});

describe('health', () => {
  it('answers /healthz and /readyz', async () => {
    expect((await app.request('/healthz')).status).toBe(200);
    expect((await app.request('/readyz')).status).toBe(200);
  });

  it('answers /healthz before the middleware chain: never rate limited, still not cacheable or framable', async () => {
    const tight = createApp(coreDeps({}, { RATE_LIMIT_SCALE: '0.01' }));
    const answers = await Promise.all(Array.from({ length: 30 }, () => tight.request('/healthz')));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    const res = answers[0]!;
    expect(res.headers.get('x-ratelimit-limit')).toBeNull();
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
  });

  it('answers /readyz at probe rates without a 429: balancers probing from one address keep it in service', async () => {
    const tight = createApp(coreDeps({}, { RATE_LIMIT_SCALE: '0.01' }));
    const answers = await Promise.all(Array.from({ length: 200 }, () => tight.request('/readyz')));
    expect(answers.map((r) => r.status)).toEqual(answers.map(() => 200));
    expect(answers[0]!.headers.get('x-ratelimit-limit')).toBeNull();
    expect((await answers[0]!.json()).checks).toMatchObject({ database: 'ok', disk: { status: 'ok' } });
  });

  it('is not ready when the data directory is nearly full, and says which check failed', async () => {
    const full = createApp(coreDeps({}, { READY_MIN_FREE_MB: '1000000' }));
    const res = await full.request('/readyz');
    expect(res.status).toBe(503);
    expect(res.headers.get('retry-after')).toBe('5');
    const body = await res.json();
    expect(body.error.code).toBe('SERVICE_UNAVAILABLE');
    expect(body.error.details.checks).toMatchObject({ database: 'ok', disk: { status: 'low' } });
  });

  it('reports Redis without turning unready over it: the instance serves on its own limits', async () => {
    const noRedis = createApp(
      coreDeps({ pingRedis: () => Promise.reject(new Error('connect ECONNREFUSED')) }),
    );
    const res = await noRedis.request('/readyz');
    expect(res.status).toBe(200);
    expect((await res.json()).checks.redis).toBe('unavailable');
  });

  it('is not ready when the database is unreachable or the server is draining', async () => {
    const down = createApp(coreDeps({ ping: () => Promise.reject(new Error('ECONNREFUSED')) }));
    const res = await down.request('/readyz');
    expect(res.status).toBe(503);
    expect((await res.json()).error.code).toBe('SERVICE_UNAVAILABLE');
    const draining = createApp(coreDeps({ isShuttingDown: () => true }));
    expect((await draining.request('/readyz')).status).toBe(503);
    expect((await draining.request('/healthz')).status).toBe(200);
  });
});

describe('OpenAPI and docs', () => {
  it('publishes an OpenAPI 3.1 document listing the routes', async () => {
    const res = await app.request('/v1/openapi.json');
    expect(res.status).toBe(200);
    const doc = await res.json();
    expect(doc.openapi).toBe('3.1.0');
    expect(doc.info.title).toBeTruthy();
    expect(Object.keys(doc.paths)).toContain('/v1/api/echo');
  });

  it('serves the docs page and its assets itself', async () => {
    const page = await app.request('/docs');
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).not.toMatch(/https?:\/\//);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    for (const src of html.match(/\/docs\/assets\/[\w.-]+/g) ?? []) {
      const asset = await app.request(src);
      expect(asset.status, src).toBe(200);
      expect((await asset.arrayBuffer()).byteLength, src).toBeGreaterThan(100);
    }
  });
});

describe('CORS', () => {
  const embedOrigin = 'http://127.0.0.1:8788';
  it('answers any origin on the embed-session endpoint', async () => {
    const res = await app.request('/v1/api/license/activate', {
      method: 'OPTIONS',
      headers: { origin: 'https://any-firm.example', 'access-control-request-method': 'POST' },
    });
    expect(res.headers.get('access-control-allow-origin')).toBe('https://any-firm.example');
  });

  it('answers only the embed host elsewhere', async () => {
    const headers = (origin: string) => ({ origin, 'access-control-request-method': 'POST' });
    const fromEmbed = await app.request('/v1/api/echo', { method: 'OPTIONS', headers: headers(embedOrigin) });
    expect(fromEmbed.headers.get('access-control-allow-origin')).toBe(embedOrigin);
    const fromOther = await app.request('/v1/api/echo', {
      method: 'OPTIONS',
      headers: headers('https://evil.example'),
    });
    expect(fromOther.headers.get('access-control-allow-origin')).toBeNull();
  });

  it('puts every header on an answer the route made itself, and on a preflight', async () => {
    for (const res of [
      await app.request('/v1/api/raw', { headers: { origin: embedOrigin } }),
      await app.request('/v1/api/raw', {
        method: 'OPTIONS',
        headers: { origin: embedOrigin, 'access-control-request-method': 'GET' },
      }),
    ]) {
      expect(res.headers.get('access-control-allow-origin')).toBe(embedOrigin);
      expect(res.headers.get('access-control-expose-headers')).toContain('X-RateLimit-Remaining');
      expect(res.headers.get('vary')).toContain('Origin');
      expect(res.headers.get('x-request-id')).toMatch(/^[\w-]{36}$/);
      expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
      expect(res.headers.get('ratelimit')).toMatch(/^"default";r=\d+;t=\d+$/);
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toContain("default-src 'none'");
    }
    const raw = await app.request('/v1/api/raw', { headers: { origin: embedOrigin } });
    expect(await raw.text()).toBe('raw');
    expect(raw.headers.get('content-type')).toBe('text/plain');
  });

  it('keeps a redirect whose headers are immutable, and adds every header to it', async () => {
    const res = await app.request('/v1/api/moved', { headers: { origin: embedOrigin } });
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe('https://elsewhere.example/to');
    expect(res.headers.get('access-control-allow-origin')).toBe(embedOrigin);
    expect(res.headers.get('x-request-id')).toBeTruthy();
    expect(res.headers.get('x-ratelimit-limit')).toMatch(/^\d+$/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });

  it('puts CORS on a 429, so the widget can read Retry-After', async () => {
    const limited = createApp(coreDeps({ v1Routes: [echoRouter()] }, { RATE_LIMIT_SCALE: '0.01' }));
    let res: Response | undefined;
    for (let i = 0; i < 5 && res?.status !== 429; i++)
      res = await limited.request('/v1/api/raw', { headers: { origin: embedOrigin } });
    expect(res?.status).toBe(429);
    expect(res?.headers.get('access-control-allow-origin')).toBe(embedOrigin);
    expect(res?.headers.get('access-control-expose-headers')).toContain('Retry-After');
    expect(res?.headers.get('retry-after')).toMatch(/^\d+$/);
    expect(res?.headers.get('x-ratelimit-remaining')).toBe('0');
  });
});
