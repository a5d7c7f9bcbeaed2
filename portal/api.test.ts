import { afterEach, describe, expect, expectTypeOf, it, vi } from 'vitest';
import type { HeldLeads, LeadDetail, LeadPage, OneLead } from '../server/routes/portal/types.ts';
import { api, PortalError, setCsrfToken } from './api.ts';

/** What the portal sends (fetch is replaced by a recorder) and how it reads what comes back. */
function answer(response: Response | Error) {
  const calls: Request[] = [];
  vi.stubGlobal('fetch', async (input: URL, init: RequestInit) => {
    calls.push(new Request(input, init));
    if (response instanceof Error) throw response;
    return response;
  });
  return calls;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('portal api', () => {
  it('GETs under /v1/portal/ with the query, without empty fields or a CSRF header', async () => {
    const calls = answer(Response.json({ items: [] }));
    await expect(api.get('leads', { status: 'new', q: '', page: 2, after: undefined })).resolves.toEqual({
      items: [],
    });
    const url = new URL(calls[0]!.url);
    expect(url.pathname).toBe('/v1/portal/leads');
    expect(url.search).toBe('?status=new&page=2');
    expect(calls[0]!.method).toBe('GET');
    expect(calls[0]!.headers.has('X-CSRF-Token')).toBe(false);
    expect(calls[0]!.credentials).toBe('same-origin');
  });

  it('writes carry the CSRF token and a JSON body; an empty answer reads as ""', async () => {
    setCsrfToken('csrf-1');
    const calls = answer(new Response(null, { status: 204 }));
    await expect(api.patch('leads/lead_1', { status: 'won' })).resolves.toBe('');
    expect(calls[0]!.method).toBe('PATCH');
    expect(calls[0]!.headers.get('X-CSRF-Token')).toBe('csrf-1');
    expect(calls[0]!.headers.get('Content-Type')).toBe('application/json');
    expect(await calls[0]!.json()).toEqual({ status: 'won' });
  });

  it('a POST without a body sends none', async () => {
    const calls = answer(Response.json({ ok: true }));
    await api.post('session/sign-out');
    expect(calls[0]!.method).toBe('POST');
    expect(await calls[0]!.text()).toBe('');
  });

  it('an error answer becomes a PortalError with its code, message, status and details', async () => {
    answer(
      Response.json(
        {
          error: {
            code: 'VALIDATION',
            message: 'Check the fields.',
            status: 422,
            details: [{ path: 'url', message: 'Use https.' }],
          },
        },
        { status: 422 },
      ),
    );
    const error = await api.post('webhooks', { url: 'http://x' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PortalError);
    expect(error).toMatchObject({
      code: 'VALIDATION',
      message: 'Check the fields.',
      status: 422,
      details: [{ path: 'url', message: 'Use https.' }],
    });
  });

  it('an answer that is not the error shape, and no answer at all, say so plainly', async () => {
    answer(new Response('<html>bad gateway</html>', { status: 502 }));
    await expect(api.get('overview')).rejects.toMatchObject({ code: 'HTTP', status: 502 });
    answer(new TypeError('Failed to fetch'));
    await expect(api.get('overview')).rejects.toMatchObject({ code: 'NETWORK', status: 0 });
  });
});

describe('each path is bound to the answer its route declares', () => {
  // Checked by `tsc` (npm run typecheck), never run: a wrong pair fails to compile.
  const compileOnly = () => {
    expectTypeOf(api.get('leads/held')).resolves.toEqualTypeOf<HeldLeads>();
    expectTypeOf(api.get(`leads/${encodeURIComponent('lead_1')}`)).resolves.toEqualTypeOf<LeadDetail>();
    expectTypeOf(api.patch('leads/lead_1', { status: 'contacted' })).resolves.toEqualTypeOf<OneLead>();
    // @ts-expect-error a path no route declares
    void api.get('lead-list');
    // @ts-expect-error a route that answers POST only
    void api.get('auth/link');
    // @ts-expect-error an answer that is not this route's
    const overview: Promise<LeadPage> = api.get('overview');
    void overview;
  };
  it('is a compile-time check', () => {
    expect(typeof compileOnly).toBe('function');
  });
});
