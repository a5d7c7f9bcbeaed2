import { describe, expect, it } from 'vitest';
import { createApp } from '../../main/app.ts';
import { coreDeps } from '../../test-support/app.ts';
import { createMetrics, routeGroupOf } from './metrics.ts';

const TOKEN = 'metrics-token-0123456789';

describe('/metrics', () => {
  it('does not exist without METRICS_TOKEN', async () => {
    const app = createApp(coreDeps({ metrics: createMetrics() }));
    expect((await app.request('/metrics')).status).toBe(404);
    expect((await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(
      404,
    );
  });

  it('answers only to the token, in the Prometheus text format', async () => {
    const metrics = createMetrics();
    metrics.gauge('svc_test_depth', 'A test gauge.', async () => 7);
    const app = createApp(coreDeps({ metrics }, { METRICS_TOKEN: TOKEN, RATE_LIMIT_SCALE: '0.02' }));
    const refused = await app.request('/metrics', {
      headers: { authorization: 'Bearer wrong-token-wrong-token' },
    });
    expect(refused.status).toBe(401);
    expect((await refused.json()).error.code).toBe('UNAUTHORIZED');

    for (let i = 0; i < 4; i++) await app.request('/v1/api/nowhere');
    metrics.cache('license', true);
    metrics.cache('license', false);
    const res = await app.request('/metrics', { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('text/plain');
    const text = await res.text();
    expect(text).toMatch(/svc_http_requests_total\{group="default",method="GET",status="4xx"\} 4/);
    expect(text).toMatch(/svc_rate_limit_refusals_total\{group="default"\} [1-9]/);
    expect(text).toContain('svc_http_request_duration_seconds_bucket');
    expect(text).toContain('svc_cache_lookups_total{cache="license",result="hit"} 1');
    expect(text).toContain('svc_test_depth 7');
    expect(text).toContain('process_resident_memory_bytes');
  });

  it.each([
    ['POST', '/v1/api/licenses/activate', 'activation'],
    ['POST', '/v1/api/calc/estimate', 'calculations'],
    ['GET', '/v1/api/leads', 'default'],
    ['POST', '/v1/mcp', 'mcp'],
    ['GET', '/admin/v1/accounts', 'admin'],
    ['GET', '/portal/leads', 'portal'],
    ['GET', '/.well-known/jwks.json', 'other'],
  ])('%s %s is in route group %s', (method, path, group) => {
    expect(routeGroupOf(method, path)).toBe(group);
  });
});
