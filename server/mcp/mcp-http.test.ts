import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../main/servers.ts';
import { startStack } from '../test-support/stack.ts';

/**
 * The HTTP contract of /v1/mcp with raw fetch over loopback (what curl and hand-written clients
 * see), tenant isolation across every tool, filter and cursor, and revocation on the next call.
 */
let stack: RunningServers;
let mcp: string;

async function admin(path: string, body?: unknown) {
  const res = await fetch(`${stack.apiUrl}/admin/v1${path}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
  });
  expect(res.status, await res.clone().text()).toBe(200);
  return res.json();
}

async function firm(name: string, leads: number) {
  const { account } = await admin('/accounts', { name });
  const key = await admin('/api-keys', { accountId: account.id, name: 'AI tool' });
  await admin('/demo/seed', { accountId: account.id, leads, days: 120 });
  return { accountId: account.id as string, keyId: key.id as string, apiKey: key.apiKey as string };
}

let a: Awaited<ReturnType<typeof firm>>;
let b: Awaited<ReturnType<typeof firm>>;

beforeAll(async () => {
  stack = await startStack({ RATE_LIMIT_SCALE: '100', CORS_ORIGINS: 'https://app.example.com' });
  mcp = `${stack.apiUrl}/v1/mcp`;
  a = await firm('Firm A', 40);
  b = await firm('Firm B', 40);
}, 90_000);
afterAll(() => stack?.close());

const INIT = {
  jsonrpc: '2.0',
  id: 1,
  method: 'initialize',
  params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'curl', version: '1' } },
};

function post(
  body: unknown,
  opts: { key?: string | null; headers?: Record<string, string>; url?: string } = {},
) {
  const key = opts.key === undefined ? a.apiKey : opts.key;
  return fetch(opts.url ?? mcp, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json',
      ...(key ? { authorization: `Bearer ${key}` } : {}),
      ...opts.headers,
    },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

const call = (name: string, args: Record<string, unknown>, key?: string) =>
  post(
    { jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name, arguments: args } },
    { key: key ?? a.apiKey },
  );

async function callOk(name: string, args: Record<string, unknown>, key?: string) {
  const res = await call(name, args, key);
  expect(res.status).toBe(200);
  const body = await res.json();
  return body.result as {
    isError?: boolean;
    structuredContent: Record<string, unknown>;
    content: { text: string }[];
  };
}

describe('HTTP rules', () => {
  it('answers a plain JSON POST (Accept: application/json only, or none) with JSON', async () => {
    for (const accept of ['application/json', '*/*', undefined]) {
      const res = await post(INIT, { headers: accept ? { accept } : { accept: '' } });
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/json/);
      const body = await res.json();
      expect(body.result.protocolVersion).toBe('2025-11-25');
      expect(body.result.serverInfo.name).toBe('svc');
    }
    const list = await (await post({ jsonrpc: '2.0', id: 2, method: 'tools/list' })).json();
    expect(list.result.tools).toHaveLength(8);
    const ping = await (await post({ jsonrpc: '2.0', id: 3, method: 'ping' })).json();
    expect(ping).toEqual({ jsonrpc: '2.0', id: 3, result: {} });
  });

  it('serves the 2026-07-28 revision with its headers and _meta, in JSON', async () => {
    const meta = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'curl', version: '1' },
      'io.modelcontextprotocol/clientCapabilities': {},
    };
    const headers = { 'mcp-protocol-version': '2026-07-28' };
    const discover = await post(
      { jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: meta } },
      { headers: { ...headers, 'mcp-method': 'server/discover' } },
    );
    expect(discover.status).toBe(200);
    expect((await discover.json()).result.supportedVersions).toContain('2026-07-28');
    const res = await post(
      {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'get_directory_stats', arguments: {}, _meta: meta },
      },
      { headers: { ...headers, 'mcp-method': 'tools/call', 'mcp-name': 'get_directory_stats' } },
    );
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect((await res.json()).result.structuredContent.windowDays).toBe(30);
  });

  it('acknowledges a notification with 202 and an empty body', async () => {
    const res = await post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(res.status).toBe(202);
    expect(await res.text()).toBe('');
  });

  it.each(['GET', 'DELETE', 'PUT'])('answers %s with 405', async (method) => {
    const res = await fetch(mcp, { method, headers: { authorization: `Bearer ${a.apiKey}` } });
    expect(res.status).toBe(405);
    expect(res.headers.get('allow')).toBe('POST');
    expect((await res.json()).error).toMatchObject({ code: 'METHOD_NOT_ALLOWED', status: 405 });
  });

  it('refuses a batch array with a JSON-RPC error', async () => {
    const res = await post([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', id: 2, method: 'tools/list' },
    ]);
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.jsonrpc).toBe('2.0');
    expect(body.error.code).toBe(-32600);
  });

  it('answers unparseable JSON with -32700', async () => {
    const res = await post('{"jsonrpc":');
    expect(res.status).toBe(400);
    expect((await res.json()).error.code).toBe(-32700);
  });

  it('answers an unknown method with -32601 and an unknown tool with -32602', async () => {
    const unknownMethod = await (await post({ jsonrpc: '2.0', id: 4, method: 'leads/delete' })).json();
    expect(unknownMethod.error.code).toBe(-32601);
    const unknownTool = await (await call('delete_leads', {})).json();
    expect(unknownTool.error.code).toBe(-32602);
    expect(unknownTool.result).toBeUndefined();
  });

  it('answers invalid arguments with an isError result that says how to fix them', async () => {
    const tooMany = await callOk('get_leads', { limit: 500 });
    expect(tooMany.isError).toBe(true);
    expect(tooMany.content[0]!.text).toMatch(/limit/);
    const unknown = await callOk('get_leads', { accountId: b.accountId });
    expect(unknown.isError).toBe(true);
    expect(unknown.content[0]!.text).toMatch(/accountId.*allowed: status/);
    const today = new Date().toISOString().slice(0, 10);
    const badDate = await callOk('get_leads', { createdFrom: 'last tuesday' });
    expect(badDate.isError).toBe(true);
    expect(badDate.content[0]!.text).toContain(`Today is ${today}`);
    const backwards = await callOk('get_calculator_results', {
      createdFrom: '2026-05-01',
      createdTo: '2026-04-01',
    });
    expect(backwards.isError).toBe(true);
    expect(backwards.content[0]!.text).toContain(today);
    const status = await callOk('get_leads', { status: 'won' });
    expect(status.isError).toBe(true);
    expect(status.content[0]!.text).toMatch(/status/);
  });

  it('serves the /mcp alias', async () => {
    const res = await post(INIT, { url: `${stack.apiUrl}/mcp` });
    expect(res.status).toBe(200);
  });

  it('carries the rate-limit headers of the default group, per key', async () => {
    const res = await post({ jsonrpc: '2.0', id: 3, method: 'ping' });
    expect(res.headers.get('x-ratelimit-resource')).toBe('default');
    expect(Number(res.headers.get('x-ratelimit-limit'))).toBe(120 * 100);
  });
});

describe('Origin (DNS rebinding) and CORS', () => {
  it.each(['https://evil.example', 'http://evil.example:80', 'null'])(
    'refuses Origin %s with 403',
    async (origin) => {
      const res = await post(INIT, { headers: { origin } });
      expect(res.status).toBe(403);
      expect((await res.json()).error).toMatchObject({ code: 'FORBIDDEN', status: 403 });
    },
  );

  it('accepts its own origin, CORS_ORIGINS and development hosts, and no Origin at all', async () => {
    for (const origin of [new URL(stack.apiUrl).origin, 'https://app.example.com', 'http://localhost:6274']) {
      const res = await post(INIT, { headers: { origin } });
      expect(res.status, origin).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe(origin);
    }
    expect((await post(INIT)).status).toBe(200);
  });

  it('answers preflights with the MCP headers for allowed origins only', async () => {
    const preflight = (origin: string) =>
      fetch(mcp, {
        method: 'OPTIONS',
        headers: {
          origin,
          'access-control-request-method': 'POST',
          'access-control-request-headers':
            'authorization,content-type,mcp-protocol-version,mcp-method,mcp-name',
        },
      });
    const ok = await preflight('http://localhost:6274');
    expect(ok.headers.get('access-control-allow-origin')).toBe('http://localhost:6274');
    const allowed = ok.headers.get('access-control-allow-headers')?.toLowerCase() ?? '';
    for (const h of ['mcp-protocol-version', 'mcp-method', 'mcp-name', 'authorization'])
      expect(allowed).toContain(h);
    const evil = await preflight('https://evil.example');
    expect(evil.headers.get('access-control-allow-origin')).toBeNull();
  });
});

describe('authentication', () => {
  const expect401 = async (res: Response) => {
    expect(res.status).toBe(401);
    // RFC 6750 §3.1: no error code when no credential was sent; always the metadata and the scope.
    const metadata = `resource_metadata="${new URL(stack.apiUrl).origin}/.well-known/oauth-protected-resource/v1/mcp", scope="leads:read"`;
    const challenge = res.headers.get('www-authenticate');
    expect([`Bearer ${metadata}`, `Bearer error="invalid_token", ${metadata}`]).toContain(challenge);
    expect((await res.json()).error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  };

  it('refuses a missing, malformed or unknown key with 401 invalid_token', async () => {
    await expect401(await post(INIT, { key: null }));
    await expect401(await post(INIT, { key: 'not-a-key' }));
    await expect401(await post(INIT, { key: `svc_pat_${'A'.repeat(48)}` }));
    await expect401(
      await post(INIT, { key: a.apiKey.slice(0, -2) + (a.apiKey.endsWith('aa') ? 'bb' : 'aa') }),
    );
  });

  it('refuses embed and access tokens (API keys only)', async () => {
    const json = (path: string, body: unknown, headers: Record<string, string> = {}) =>
      fetch(`${stack.apiUrl}/v1/api${path}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', ...headers },
        body: JSON.stringify(body),
      }).then((r) => r.json());
    const embed = await json(
      '/license/activate',
      { licenseKey: stack.demo.publishableKey },
      { origin: 'http://localhost' },
    );
    expect(embed.token).toBeTruthy();
    await expect401(await post(INIT, { key: embed.token }));
    const site = await json('/licenses/activate', {
      licenseKey: stack.demo.licenseKey,
      siteDomain: 'localhost',
    });
    expect(site.accessJwt).toBeTruthy();
    await expect401(await post(INIT, { key: site.accessJwt }));
  });

  it('publishes the OAuth metadata of the MCP resource and its authorization server (no longer 404)', async () => {
    const origin = new URL(stack.apiUrl).origin;
    for (const path of ['/v1/mcp', '/mcp']) {
      const res = await fetch(`${stack.apiUrl}/.well-known/oauth-protected-resource${path}`);
      expect(res.status, path).toBe(200);
      expect((await res.json()).resource).toBe(`${origin}${path}`);
    }
    const as = await fetch(`${stack.apiUrl}/.well-known/oauth-authorization-server`);
    expect((await as.json()).issuer).toBe(origin);
    const root = await fetch(`${stack.apiUrl}/.well-known/oauth-protected-resource`);
    expect(root.status).toBe(404);
    expect((await root.json()).error.code).toBe('NOT_FOUND');
  });

  it('stops a revoked key on the very next call', async () => {
    const c = await firm('Firm C', 3);
    expect((await callOk('get_directory_stats', {}, c.apiKey)).isError).toBeUndefined();
    await admin(`/accounts/${c.accountId}/api-keys/${c.keyId}/revoke`);
    await expect401(await call('get_directory_stats', {}, c.apiKey));
  });
});

describe('isolation between two firms', () => {
  async function allLeads(key: string, filters: Record<string, unknown>) {
    const ids: string[] = [];
    let cursor: string | undefined;
    for (let i = 0; i < 50; i++) {
      const page = (await callOk('get_leads', { ...filters, limit: 100, ...(cursor ? { cursor } : {}) }, key))
        .structuredContent;
      ids.push(...(page.leads as { id: string }[]).map((l) => l.id));
      cursor = page.nextCursor as string | undefined;
      if (!cursor) break;
    }
    return ids;
  }

  async function allResults(key: string, filters: Record<string, unknown>) {
    const page = (await callOk('get_calculator_results', { ...filters, limit: 100 }, key)).structuredContent;
    return (page.results as { id: string }[]).map((r) => r.id);
  }

  it('no tool or filter of one firm returns the other firm’s rows', async () => {
    const aLeads = new Set(await allLeads(a.apiKey, {}));
    const bLeads = new Set(await allLeads(b.apiKey, {}));
    expect(aLeads.size).toBe(40);
    expect(bLeads.size).toBe(40);
    const aResults = new Set(await allResults(a.apiKey, {}));
    const bResults = new Set(await allResults(b.apiKey, {}));
    const filters: Record<string, unknown>[] = [
      { status: 'new' },
      { status: 'contacted' },
      { status: 'converted' },
      ...['estate-tax', 'inheritance-tax', 'probate-fees', 'executor-commission', 'rmd'].map((s) => ({
        calculatorSlug: s,
      })),
      { state: 'NY' },
      { state: 'CA' },
      { createdFrom: '2000-01-01', createdTo: '2100-01-01' },
      { includeTest: true },
    ];
    for (const f of filters) {
      for (const id of await allLeads(a.apiKey, f)) expect(bLeads.has(id), JSON.stringify(f)).toBe(false);
      for (const id of await allLeads(b.apiKey, f)) expect(aLeads.has(id), JSON.stringify(f)).toBe(false);
      const { status: _s, ...resultFilters } = f;
      for (const id of await allResults(a.apiKey, resultFilters)) expect(bResults.has(id)).toBe(false);
      for (const id of await allResults(b.apiKey, resultFilters)) expect(aResults.has(id)).toBe(false);
    }
    const statsA = (await callOk('get_directory_stats', { windowDays: 365 }, a.apiKey)).structuredContent;
    const statsB = (await callOk('get_directory_stats', { windowDays: 365 }, b.apiKey)).structuredContent;
    expect(statsA.totalLeadsAllTime).toBe(40);
    expect(statsB.totalLeadsAllTime).toBe(40);
  });

  it('a cursor of one firm is an isError result for the other (MCP) and 400 over REST', async () => {
    for (const tool of ['get_leads', 'get_calculator_results']) {
      const page = (await callOk(tool, { limit: 5 }, a.apiKey)).structuredContent;
      const cursor = page.nextCursor as string;
      expect(cursor).toBeTruthy();
      const foreign = await callOk(tool, { limit: 5, cursor }, b.apiKey);
      expect(foreign.isError).toBe(true);
      expect(foreign.content[0]!.text).toMatch(/cursor/i);
      // Tampered: flip one character of the payload.
      const tampered = `${cursor[0] === 'e' ? 'f' : 'e'}${cursor.slice(1)}`;
      expect((await callOk(tool, { limit: 5, cursor: tampered }, a.apiKey)).isError).toBe(true);
      // Other filters than the ones it was made for.
      expect((await callOk(tool, { limit: 5, cursor, state: 'NY' }, a.apiKey)).isError).toBe(true);
      // The owner continues fine.
      expect((await callOk(tool, { limit: 5, cursor }, a.apiKey)).isError).toBeUndefined();
    }
    const rest = (key: string, query: string) =>
      fetch(`${stack.apiUrl}/v1/api/leads${query}`, { headers: { authorization: `Bearer ${key}` } });
    const first = await (await rest(a.apiKey, '?limit=5&status=new')).json();
    expect(first.data.length).toBe(5);
    const foreign = await rest(b.apiKey, `?limit=5&status=new&cursor=${first.nextCursor}`);
    expect(foreign.status).toBe(400);
    expect((await foreign.json()).error.code).toBe('INVALID_REQUEST');
    const next = await (await rest(a.apiKey, `?limit=5&status=new&cursor=${first.nextCursor}`)).json();
    for (const lead of next.data) expect(lead.status).toBe('new');
    expect(next.data[0].leadId).not.toBe(first.data[0].leadId);
  });
});
