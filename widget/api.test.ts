import { afterEach, describe, expect, it, vi } from 'vitest';
import { ApiError, createApi, LEAD_RETRY_DELAYS_MS, REQUEST_TIMEOUT_MS, sendView } from './api.ts';
import { API, apiError, json, stubFetch } from './testing.ts';

const RESULT = { resultId: 'res_1', calculator: 'rmd', state: null, inputs: {}, outputs: {}, ruleSet: {} };

function api(token: string | null = 't1', renew = async () => false) {
  let current = token;
  return createApi({
    credentials: () => (current ? { token: current, apiUrl: API } : undefined),
    renew: vi.fn(async () => {
      const ok = await renew();
      if (ok) current = 't2';
      return ok;
    }),
  });
}

afterEach(() => vi.unstubAllGlobals());

describe('widget API calls', () => {
  it('sends one best-effort view signal with the calculator and page, and swallows a failure', async () => {
    const { requests } = stubFetch(() => json(200, {}));
    sendView({ token: 't1', apiUrl: API }, 'rmd', 'https://firm.test/estate');
    expect(requests[0]!.url).toBe(`${API}/v1/api/views`);
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer t1');
    expect(await requests[0]!.json()).toEqual({
      calculator: 'rmd',
      page: 'https://firm.test/estate',
      language: 'en',
    });
    const failing = stubFetch(() => Promise.reject(new TypeError('offline')));
    sendView({ token: 't1', apiUrl: API }, 'rmd', undefined);
    expect(await failing.requests[0]!.json()).toEqual({ calculator: 'rmd', language: 'en' });
    await new Promise((resolve) => setTimeout(resolve, 0)); // the rejection is handled, not thrown
  });

  it('posts the estimate with the embed token', async () => {
    const { requests } = stubFetch(() => json(200, RESULT));
    await expect(api().estimate({ calculator: 'rmd', inputs: { age: 75 } })).resolves.toEqual(RESULT);
    expect(requests[0]!.url).toBe(`${API}/v1/api/calc/estimate`);
    expect(requests[0]!.headers.get('authorization')).toBe('Bearer t1');
    expect(await requests[0]!.json()).toEqual({ calculator: 'rmd', inputs: { age: 75 }, language: 'en' });
  });

  it('sends the lead with its Idempotency-Key, and retries a gateway error with the same key', async () => {
    const { requests } = stubFetch(
      () => json(503, {}),
      () => json(201, { leadId: 'lead_1' }),
    );
    await expect(api().submitLead({ name: 'A' }, 'key-1')).resolves.toEqual({ leadId: 'lead_1' });
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['key-1', 'key-1']);
  });

  it('retries a lead after a network failure with the same key, after a pause, and sends the page', async () => {
    let calls = 0;
    const { requests } = stubFetch(() => {
      calls++;
      if (calls === 1) throw new TypeError('Failed to fetch');
      return json(201, { leadId: 'lead_1' });
    });
    const withPage = createApi({
      credentials: () => ({ token: 't1', apiUrl: API }),
      renew: async () => false,
      page: () => 'http://shop.example/estate',
    });
    await expect(withPage.submitLead({ name: 'A' }, 'key-1')).resolves.toEqual({ leadId: 'lead_1' });
    expect(requests.map((r) => r.headers.get('idempotency-key'))).toEqual(['key-1', 'key-1']);
    expect(await requests[1]!.json()).toEqual({
      name: 'A',
      page: 'http://shop.example/estate',
      language: 'en',
    });
  });

  it('gives up on a lead after the bounded retries with a network error', async () => {
    vi.useFakeTimers();
    try {
      const { requests } = stubFetch(() => {
        throw new TypeError('Failed to fetch');
      });
      const sent = api()
        .submitLead({ name: 'A' }, 'key-1')
        .catch((e: unknown) => e);
      await vi.runAllTimersAsync();
      const failure = await sent;
      expect(failure).toBeInstanceOf(ApiError);
      expect((failure as ApiError).payload.reason).toBe('network');
      expect(requests).toHaveLength(LEAD_RETRY_DELAYS_MS.length + 1);
    } finally {
      vi.useRealTimers();
    }
  });

  it('ends a request that never answers after REQUEST_TIMEOUT_MS (network error, no endless wait)', async () => {
    vi.useFakeTimers();
    try {
      vi.stubGlobal(
        'fetch',
        vi.fn(
          (_url: string, init: RequestInit) =>
            new Promise((_resolve, reject) =>
              init.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
            ),
        ),
      );
      const sent = api()
        .estimate({ calculator: 'rmd', inputs: {} })
        .catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS);
      expect(((await sent) as ApiError).payload.reason).toBe('network');
    } finally {
      vi.useRealTimers();
    }
  });

  it('asks for a fresh token once on 401 and retries with it', async () => {
    const { requests } = stubFetch(
      () => apiError(401, 'UNAUTHORIZED'),
      () => json(200, RESULT),
    );
    await expect(api('t1', async () => true).estimate({ calculator: 'rmd', inputs: {} })).resolves.toEqual(
      RESULT,
    );
    expect(requests.map((r) => r.headers.get('authorization'))).toEqual(['Bearer t1', 'Bearer t2']);
  });

  it.each([
    [401, 'UNAUTHORIZED', 'token_denied'],
    [403, 'DOMAIN_NOT_ALLOWED', 'domain_not_allowed'],
    [403, 'FORBIDDEN', 'token_denied'],
    [429, 'RATE_LIMITED', 'rate_limited'],
    [400, 'INVALID_REQUEST', 'invalid_input'],
    [404, 'NOT_FOUND', 'unknown'],
    [500, 'INTERNAL_ERROR', 'unknown'],
  ])('maps %d %s to %s', async (status, code, reason) => {
    stubFetch(() => apiError(status, code));
    const failure = await api()
      .estimate({ calculator: 'rmd', inputs: {} })
      .catch((e: ApiError) => e);
    expect(failure).toBeInstanceOf(ApiError);
    expect((failure as ApiError).payload.reason).toBe(reason);
    expect((failure as ApiError).status).toBe(status);
  });

  it('keeps the field details of a 400', async () => {
    stubFetch(() => apiError(400, 'INVALID_REQUEST', [{ path: 'inputs.age', message: 'too young' }]));
    const failure = (await api()
      .estimate({ calculator: 'rmd', inputs: {} })
      .catch((e) => e)) as ApiError;
    expect(failure.details).toEqual([{ path: 'inputs.age', message: 'too young' }]);
  });

  it('reports an unreachable server as network', async () => {
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    const failure = (await api()
      .estimate({ calculator: 'rmd', inputs: {} })
      .catch((e) => e)) as ApiError;
    expect(failure.payload.reason).toBe('network');
  });

  it('does not call without a session', async () => {
    const { fetch } = stubFetch(() => json(200, RESULT));
    const failure = (await api(null)
      .estimate({ calculator: 'rmd', inputs: {} })
      .catch((e) => e)) as ApiError;
    expect(failure.payload.reason).toBe('token_denied');
    expect(fetch).not.toHaveBeenCalled();
  });
});
