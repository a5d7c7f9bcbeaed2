import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('GET /v1/openapi.json', () => {
  it('is a valid OpenAPI 3.1 document listing every public route', async () => {
    const doc = await (await t.get('/v1/openapi.json')).json();
    const result = await new Validator().validate(doc);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(doc.openapi).toBe('3.1.0');
    const routes = Object.entries(doc.paths as Record<string, object>).flatMap(([path, ops]) =>
      Object.keys(ops).map((m) => `${m.toUpperCase()} ${path}`),
    );
    expect(routes).toEqual(
      expect.arrayContaining([
        'POST /v1/api/licenses/activate',
        'POST /v1/api/licenses/exchange',
        'POST /v1/api/licenses/refresh',
        'POST /v1/api/licenses/revoke',
        'GET /v1/api/licenses/status',
        'POST /v1/api/license/activate',
        'POST /v1/api/billing/customer-portal',
        'GET /v1/api/calculators',
        'POST /v1/api/calc/estimate',
        'POST /v1/api/leads',
        'GET /v1/api/leads',
        'PATCH /v1/api/leads/{id}',
        'POST /v1/api/pdf/generate',
        'GET /.well-known/jwks.json',
      ]),
    );
  });
});
