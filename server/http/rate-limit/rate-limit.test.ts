import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { createApp } from '../../main/app.ts';
import { coreDeps } from '../../test-support/app.ts';
import { needs } from '../../test-support/needs.ts';
import { createRouter } from '../openapi-router.ts';
import { rateLimitGroupOf } from './rate-limit-groups.ts';
import { createRateLimiter } from './rate-limiter.ts';

// Routes standing in for the real endpoints of each group, so the group table is exercised here.
function groupRouter() {
  const router = createRouter();
  for (const path of ['/api/licenses/activate', '/api/calc/estimate', '/api/pdf/generate', '/api/other']) {
    router.post(path, (c) => c.json({ ok: true }));
  }
  return router;
}

// RATE_LIMIT_SCALE=0.1 gives test-sized windows: activation 1, calculations 6, pdf 2, default 12.
const env = { RATE_LIMIT_SCALE: '0.1', TRUST_PROXY: 'true' };
const call = (app: ReturnType<typeof createApp>, path: string, ip = '203.0.113.7', auth?: string) =>
  app.request(path, {
    method: 'POST',
    body: '{}',
    headers: {
      'content-type': 'application/json',
      'x-forwarded-for': `10.0.0.1, ${ip}`,
      ...(auth ? { authorization: auth } : {}),
    },
  });

describe('rate-limit groups', () => {
  it.each([
    ['POST', '/v1/api/licenses/activate', 'activation'],
    ['POST', '/v1/api/licenses/exchange', 'activation'],
    ['POST', '/v1/api/calc/estimate', 'calculations'],
    ['POST', '/v1/api/pdf/generate', 'pdf'],
    ['POST', '/v1/api/license/activate', 'default'],
    ['GET', '/v1/api/licenses/status', 'default'],
    ['GET', '/nope', 'default'],
  ])('%s %s → %s', (method, path, group) => {
    expect(rateLimitGroupOf(method, path)).toBe(group);
  });
});

describe('rate limiting', () => {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'clearTimeout'] });
    vi.setSystemTime(new Date('2026-03-01T12:00:00Z'));
  });
  afterEach(() => vi.useRealTimers());

  it.each([
    ['/v1/api/licenses/activate', 1],
    ['/v1/api/calc/estimate', 6],
    ['/v1/api/pdf/generate', 2],
    ['/v1/api/other', 12],
  ])('%s allows %i per window, then answers 429 RATE_LIMITED', async (path, limit) => {
    const deps = coreDeps({ v1Routes: [groupRouter()] }, env);
    const app = createApp({ ...deps, clock: { now: () => new Date() } });
    for (let i = 0; i < limit; i++) {
      const res = await call(app, path);
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe(String(limit));
      expect(res.headers.get('x-ratelimit-remaining')).toBe(String(limit - i - 1));
    }
    const refused = await call(app, path);
    expect(refused.status).toBe(429);
    const body = await refused.json();
    expect(body.error).toMatchObject({ code: 'RATE_LIMITED', status: 429 });
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
    const reset = Number(refused.headers.get('x-ratelimit-reset'));
    expect(reset).toBe(Math.ceil(Date.parse('2026-03-01T12:01:00Z') / 1000));
    expect(refused.headers.get('ratelimit-policy')).toMatch(new RegExp(`;q=${limit};w=60$`));
    expect(refused.headers.get('ratelimit')).toMatch(/;r=0;t=60$/);

    // Another client has its own budget; the window reopens after a minute.
    expect((await call(app, path, '198.51.100.9')).status).toBe(200);
    vi.advanceTimersByTime(60_001);
    expect((await call(app, path)).status).toBe(200);
  });

  it('keys by credential when one verifies, and activation always by IP', async () => {
    const deps = coreDeps(
      { v1Routes: [groupRouter()], credentialKey: async (c) => c.req.header('authorization') },
      env,
    );
    const app = createApp(deps);
    for (let i = 0; i < 2; i++)
      expect((await call(app, '/v1/api/pdf/generate', `192.0.2.${i}`, 'license:a')).status).toBe(200);
    expect((await call(app, '/v1/api/pdf/generate', '192.0.2.99', 'license:a')).status).toBe(429);
    expect((await call(app, '/v1/api/pdf/generate', '192.0.2.99', 'license:b')).status).toBe(200);
    expect((await call(app, '/v1/api/licenses/activate', '192.0.2.50', 'license:a')).status).toBe(200);
    expect((await call(app, '/v1/api/licenses/activate', '192.0.2.50', 'license:b')).status).toBe(429);
  });

  it('ignores X-Forwarded-For unless TRUST_PROXY is set', async () => {
    const app = createApp(coreDeps({ v1Routes: [groupRouter()] }, { RATE_LIMIT_SCALE: '0.1' }));
    expect((await call(app, '/v1/api/licenses/activate', '192.0.2.1')).status).toBe(200);
    expect((await call(app, '/v1/api/licenses/activate', '192.0.2.2')).status).toBe(429);
  });

  it('counts an embed session whose body fails its checks (the route takes its own count)', async () => {
    const router = createRouter();
    router.post('/api/license/activate', async (c) => {
      const body = await c.req.json();
      if (!body.licenseKey) return c.json({ error: 'bad' }, 400);
      await c.get('rateGate')?.();
      return c.json({ ok: true });
    });
    const app = createApp(coreDeps({ v1Routes: [router] }, env));
    const session = (body: object) =>
      app.request('/v1/api/license/activate', {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', 'x-forwarded-for': '203.0.113.8' },
      });
    for (let i = 0; i < 12; i++) {
      const bad = await session({});
      expect(bad.status).toBe(400);
      expect(bad.headers.get('x-ratelimit-remaining')).toBe(String(11 - i));
    }
    const refused = await session({ licenseKey: 'svc_pk_x' });
    expect(refused.status).toBe(429);
    expect(refused.headers.get('retry-after')).toBe('60');
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0');
  });

  it('puts the headers on 404s too', async () => {
    const app = createApp(coreDeps({}, env));
    const res = await app.request('/missing');
    expect(res.status).toBe(404);
    expect(res.headers.get('x-ratelimit-limit')).toBe('12');
    expect(res.headers.get('x-ratelimit-remaining')).toBe('11');
  });
});

needs('redis').describe('rate limiting shared through Redis (Redis)', () => {
  const redis = new Redis(process.env.REDIS_URL ?? '', { lazyConnect: true, maxRetriesPerRequest: 1 });
  afterAll(() => redis.quit());

  it('two instances share one budget', async () => {
    const key = `test-${crypto.randomUUID()}`;
    const one = createRateLimiter({ scale: 0.1, redis });
    const two = createRateLimiter({ scale: 0.1, redis });
    expect((await one.consume('pdf', key)).allowed).toBe(true);
    expect((await two.consume('pdf', key)).allowed).toBe(true);
    const third = await one.consume('pdf', key);
    expect(third).toMatchObject({ allowed: false, remaining: 0, limit: 2 });
    expect(third.resetMs).toBeGreaterThan(0);
  });

  it('reads a watched counter in the rate-limit round trip, as another instance left it', async () => {
    const prefix = `svc-test-${crypto.randomUUID()}:`;
    const coherence = { epochKey: `${prefix}cache:epoch`, observe: vi.fn(), unreachable: vi.fn() };
    const one = createRateLimiter({ scale: 0.1, redis, prefix, coherence });
    const two = createRateLimiter({ scale: 0.1, redis, prefix, coherence });
    const watch = { name: 'license-sessions', key: 'sessions:lic_a', windowSeconds: 60 };
    expect((await one.consume('calculations', 'embed:a', watch)).watched).toBe(0);
    for (let i = 0; i < 3; i++) await two.count(watch.name, watch.key, watch.windowSeconds);
    const decision = await one.consume('calculations', 'embed:a', watch);
    expect(decision).toMatchObject({ allowed: true, remaining: 4, watched: 3 });
    expect(await one.peek(watch.name, watch.key, watch.windowSeconds)).toBe(3);
    // Without a watch the decision says nothing of it; the epoch is read either way.
    expect((await one.consume('calculations', 'embed:a')).watched).toBeUndefined();
    expect(coherence.observe).toHaveBeenCalledWith(null);
    expect(coherence.unreachable).not.toHaveBeenCalled();
  });

  it('counts a further counter in the rate-limit round trip, shared with another instance', async () => {
    const prefix = `svc-test-${crypto.randomUUID()}:`;
    const coherence = { epochKey: `${prefix}cache:epoch`, observe: vi.fn(), unreachable: vi.fn() };
    const one = createRateLimiter({ scale: 0.1, redis, prefix, coherence });
    const two = createRateLimiter({ scale: 0.1, redis, prefix, coherence });
    const sessions = { name: 'license-sessions', key: 'sessions:lic_b', windowSeconds: 60 };
    expect((await one.consume('default', 'ip:a', undefined, sessions)).also).toBe(1);
    expect(await two.count(sessions.name, sessions.key, sessions.windowSeconds)).toBe(2);
    const decision = await two.consume('default', 'ip:b', undefined, sessions);
    expect(decision).toMatchObject({ allowed: true, remaining: 11, also: 3 });
    expect(await redis.pttl(`${prefix}count:license-sessions:60:sessions:lic_b`)).toBeGreaterThan(58_000);
    expect(coherence.unreachable).not.toHaveBeenCalled();
  });
});

describe('a further counter without Redis', () => {
  it('counts on this instance', async () => {
    const limiter = createRateLimiter({ scale: 0.1 });
    const sessions = { name: 'license-sessions', key: 'sessions:lic_c', windowSeconds: 60 };
    expect((await limiter.consume('default', 'ip:a', undefined, sessions)).also).toBe(1);
    expect((await limiter.consume('default', 'ip:a', undefined, sessions)).also).toBe(2);
    expect(await limiter.peek(sessions.name, sessions.key, sessions.windowSeconds)).toBe(2);
  });
});
