import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closeAccount } from '../../domain/accounts/closure.ts';
import { changeMemberRole } from '../../domain/accounts/members.ts';
import { pkceChallenge } from '../../domain/credentials/pkce.ts';
import { clearClientDocumentCache } from '../../domain/oauth/client-documents.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * The OAuth server for MCP clients over `app.request`: metadata exactness, the 401/403 challenges,
 * registration, the token endpoint's errors, PKCE, single-use codes, the refresh retry window and
 * reuse detection, consent roles, revocation on the next call, firm isolation, token kinds kept
 * apart, and client metadata documents fetched from a loopback stub through the SSRF guard.
 */
let ctx: TestContext;
let origin: string;
let stub: Server;
let stubUrl: string;
let stubHits = 0;
let stubDoc: (url: string) => unknown = () => ({});

beforeAll(async () => {
  stub = createServer((req, res) => {
    stubHits++;
    res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' });
    res.end(JSON.stringify(stubDoc(`${stubUrl}${req.url}`)));
  });
  await new Promise<void>((r) => stub.listen(0, '127.0.0.1', r));
  stubUrl = `http://127.0.0.1:${(stub.address() as AddressInfo).port}`;
  ctx = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
  origin = new URL(ctx.services.config.publicApiUrl).origin;
}, 60_000);
afterAll(async () => {
  await ctx?.close();
  stub?.close();
});

const VERIFIER = 'v'.repeat(64);
const CHALLENGE = pkceChallenge(VERIFIER);
const REDIRECT = 'https://claude.ai/api/mcp/auth_callback';

const form = (path: string, fields: Record<string, string>, headers: Record<string, string> = {}) =>
  ctx.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/x-www-form-urlencoded', ...headers },
    body: new URLSearchParams(fields).toString(),
  });

async function register(body: Record<string, unknown>) {
  const res = await ctx.json('/oauth/register', body);
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

const mcpCall = (token: string | undefined, path = '/v1/mcp') =>
  ctx.app.request(path, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      ...(token ? { authorization: `Bearer ${token}` } : {}),
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'get_directory_stats', arguments: {} },
    }),
  });

async function firmWithOwner() {
  const { account } = await ctx.seed.firm();
  const owner = await portalCaller(ctx, account.id, 'owner');
  return { accountId: account.id, owner };
}

function authorizeParams(clientId: string, extra: Record<string, string> = {}) {
  return {
    response_type: 'code',
    client_id: clientId,
    redirect_uri: REDIRECT,
    state: 'st-1',
    code_challenge: CHALLENGE,
    code_challenge_method: 'S256',
    resource: `${origin}/v1/mcp`,
    ...extra,
  };
}

async function approve(caller: Awaited<ReturnType<typeof portalCaller>>, clientId: string, extra = {}) {
  const res = await caller.call('POST', 'oauth/mcp-consent', {
    ...authorizeParams(clientId, extra),
    decision: 'approve',
  });
  expect(res.status, JSON.stringify(res.body)).toBe(200);
  const url = new URL(res.body.redirectTo);
  return { code: url.searchParams.get('code')!, url };
}

async function tokens(clientId: string, code: string, extra: Record<string, string> = {}) {
  const res = await form('/oauth/token', {
    grant_type: 'authorization_code',
    client_id: clientId,
    code,
    redirect_uri: REDIRECT,
    code_verifier: VERIFIER,
    ...extra,
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, string> };
}

interface TokenBody {
  access_token: string;
  refresh_token: string;
  token_type: string;
  expires_in: number;
  scope: string;
}

async function connected() {
  const firm = await firmWithOwner();
  const reg = await register({
    client_name: 'Claude',
    redirect_uris: [REDIRECT],
    token_endpoint_auth_method: 'none',
  });
  const clientId = reg.body.client_id as string;
  const { code } = await approve(firm.owner, clientId);
  const issued = await tokens(clientId, code);
  expect(issued.status, JSON.stringify(issued.body)).toBe(200);
  const body = issued.body as unknown as TokenBody;
  return { ...firm, clientId, ...body };
}

describe('metadata', () => {
  it('publishes RFC 9728 metadata for /v1/mcp and /mcp, each with its exact resource', async () => {
    for (const path of ['/v1/mcp', '/mcp']) {
      const res = await ctx.get(`/.well-known/oauth-protected-resource${path}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('access-control-allow-origin')).toBe('*');
      expect(await res.json()).toEqual({
        resource: `${origin}${path}`,
        authorization_servers: [origin],
        scopes_supported: ['leads:read', 'leads:export', 'leads:write'],
        resource_name: 'svc leads (MCP)',
        bearer_methods_supported: ['header'],
      });
    }
  });

  it('publishes RFC 8414 metadata with the exact issuer, S256 only and metadata documents', async () => {
    const meta = await (await ctx.get('/.well-known/oauth-authorization-server')).json();
    expect(meta).toMatchObject({
      issuer: origin,
      authorization_endpoint: `${origin}/oauth/authorize`,
      token_endpoint: `${origin}/oauth/token`,
      registration_endpoint: `${origin}/oauth/register`,
      revocation_endpoint: `${origin}/oauth/revoke`,
      response_types_supported: ['code'],
      grant_types_supported: ['authorization_code', 'refresh_token'],
      code_challenge_methods_supported: ['S256'],
      token_endpoint_auth_methods_supported: ['none', 'client_secret_basic', 'client_secret_post'],
      client_id_metadata_document_supported: true,
      authorization_response_iss_parameter_supported: true,
      scopes_supported: ['leads:read', 'leads:export', 'leads:write'],
    });
  });
});

describe('challenges on the MCP endpoint', () => {
  const metadata = (path: string) =>
    `resource_metadata="${origin}/.well-known/oauth-protected-resource${path}", scope="leads:read"`;

  it('answers 401 naming the metadata, with invalid_token only when a token was sent', async () => {
    const none = await mcpCall(undefined);
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe(`Bearer ${metadata('/v1/mcp')}`);
    const alias = await mcpCall(undefined, '/mcp');
    expect(alias.headers.get('www-authenticate')).toBe(`Bearer ${metadata('/mcp')}`);
    const bad = await mcpCall('eyJhbGciOiJub25lIn0.e30.');
    expect(bad.status).toBe(401);
    expect(bad.headers.get('www-authenticate')).toBe(`Bearer error="invalid_token", ${metadata('/v1/mcp')}`);
    expect((await bad.json()).error.code).toBe('UNAUTHORIZED');
  });

  it('answers 403 insufficient_scope to a key without leads:read', async () => {
    const { account } = await ctx.seed.firm();
    const key = await ctx.seed.apiKey(account.id, ['billing']);
    const res = await mcpCall(key.apiKey);
    expect(res.status).toBe(403);
    expect(res.headers.get('www-authenticate')).toBe(
      `Bearer error="insufficient_scope", scope="leads:read", resource_metadata="${origin}/.well-known/oauth-protected-resource/v1/mcp"`,
    );
  });
});

describe('dynamic client registration', () => {
  it('registers the real clients’ redirect URIs and drops only the unusable ones', async () => {
    const usable = [
      'https://claude.ai/api/mcp/auth_callback',
      'https://claude.com/api/mcp/auth_callback',
      'https://chatgpt.com/connector_platform_oauth_redirect',
      'http://127.0.0.1:33418',
      'https://vscode.dev/redirect',
      'cursor://anysphere.cursor-mcp/oauth/callback',
      'http://localhost:6274/oauth/callback',
      'http://[::1]:8080/cb',
    ];
    const unusable = [
      'http://evil.example/cb',
      'javascript:alert(1)',
      'https://a.example/cb#frag',
      'data:text/html,x',
    ];
    const reg = await register({
      client_name: 'Many',
      redirect_uris: [...usable, ...unusable],
      token_endpoint_auth_method: 'none',
    });
    expect(reg.status).toBe(201);
    expect(reg.body.redirect_uris).toEqual(usable);
    expect(reg.body.client_secret).toBeUndefined();
  });

  it('refuses a registration with no usable redirect URI in the RFC 7591 error format', async () => {
    const reg = await register({ redirect_uris: ['http://evil.example/cb', 'javascript:x'] });
    expect(reg.status).toBe(400);
    expect(reg.body.error).toBe('invalid_redirect_uri');
    const bad = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'private_key_jwt' });
    expect(bad.body.error).toBe('invalid_client_metadata');
  });

  it('gives a confidential client a secret it must present by its registered method', async () => {
    const firm = await firmWithOwner();
    const reg = await register({
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'client_secret_basic',
    });
    const id = reg.body.client_id as string;
    const secret = reg.body.client_secret as string;
    expect(secret).toMatch(/^svc_cs_/);
    const { code } = await approve(firm.owner, id);
    const post = await tokens(id, code, { client_secret: secret });
    expect(post.status).toBe(401);
    expect(post.body.error).toBe('invalid_client');
    const { code: code2 } = await approve(firm.owner, id);
    const basic = Buffer.from(`${id}:${secret}`).toString('base64');
    const res = await form(
      '/oauth/token',
      { grant_type: 'authorization_code', code: code2, redirect_uri: REDIRECT, code_verifier: VERIFIER },
      { authorization: `Basic ${basic}` },
    );
    expect(res.status).toBe(200);
  });
});

describe('consent', () => {
  it('tells a *.localhost return name (any local program can claim it) from a loopback address (issue 39, 9)', async () => {
    const firm = await firmWithOwner();
    const consentFor = async (redirect: string) => {
      const reg = await register({
        client_name: 'Local',
        redirect_uris: [redirect],
        token_endpoint_auth_method: 'none',
      });
      const q = new URLSearchParams(
        authorizeParams(reg.body.client_id as string, { redirect_uri: redirect }),
      );
      const res = await firm.owner.call('GET', `oauth/mcp-consent?${q}`);
      expect(res.status).toBe(200);
      return res.body.client;
    };
    expect(await consentFor('http://claude-desktop.localhost:7777/cb')).toMatchObject({
      redirectHost: 'claude-desktop.localhost:7777',
      localhostOnly: true,
      localhostName: true,
    });
    expect(await consentFor('http://127.0.0.1:33418/')).toMatchObject({
      localhostOnly: true,
      localhostName: false,
    });
    expect(await consentFor('http://localhost:6274/oauth/callback')).toMatchObject({ localhostName: false });
    expect(await consentFor(REDIRECT)).toMatchObject({ localhostOnly: false, localhostName: false });
  });

  it('describes the request for the page and shows (never redirects) an unregistered redirect', async () => {
    const firm = await firmWithOwner();
    const reg = await register({
      client_name: 'Claude',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const q = new URLSearchParams(authorizeParams(reg.body.client_id as string)).toString();
    const ok = await firm.owner.call('GET', `oauth/mcp-consent?${q}`);
    expect(ok.status).toBe(200);
    expect(ok.body.client).toMatchObject({
      name: 'Claude',
      nameVerified: false,
      kind: 'dynamic',
      redirectHost: 'claude.ai',
      localhostOnly: false,
    });
    expect(ok.body).toMatchObject({
      firm: { name: 'Smith & Søn Estate Law' },
      canApprove: true,
      role: 'owner',
    });
    const evil = new URLSearchParams(
      authorizeParams(reg.body.client_id as string, { redirect_uri: 'https://evil.example/cb' }),
    ).toString();
    const bad = await firm.owner.call('GET', `oauth/mcp-consent?${evil}`);
    expect(bad.status).toBe(400);
    expect(bad.body.error.code).toBe('INVALID_REQUEST');
    expect(bad.body.error.details[0].redirectTo).toBeUndefined();
    const wrongTarget = new URLSearchParams(
      authorizeParams(reg.body.client_id as string, { resource: 'https://other.example/mcp' }),
    ).toString();
    const target = await firm.owner.call('GET', `oauth/mcp-consent?${wrongTarget}`);
    const back = new URL(target.body.error.details[0].redirectTo);
    expect(back.searchParams.get('error')).toBe('invalid_target');
    expect(back.searchParams.get('state')).toBe('st-1');
    expect(back.searchParams.get('iss')).toBe(origin);
  });

  it('lets a viewer deny but not approve', async () => {
    const firm = await firmWithOwner();
    const viewer = await portalCaller(ctx, firm.accountId, 'viewer');
    const reg = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const params = authorizeParams(reg.body.client_id as string);
    const no = await viewer.call('POST', 'oauth/mcp-consent', { ...params, decision: 'approve' });
    expect(no.status).toBe(403);
    const deny = await viewer.call('POST', 'oauth/mcp-consent', { ...params, decision: 'deny' });
    const url = new URL(deny.body.redirectTo);
    expect(url.searchParams.get('error')).toBe('access_denied');
    expect(url.searchParams.get('iss')).toBe(origin);
  });

  it('answers approval with code, state and iss', async () => {
    const firm = await firmWithOwner();
    const reg = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const { url } = await approve(firm.owner, reg.body.client_id as string);
    expect(`${url.origin}${url.pathname}`).toBe(REDIRECT);
    expect(url.searchParams.get('code')).toMatch(/^svc_mac_/);
    expect(url.searchParams.get('state')).toBe('st-1');
    expect(url.searchParams.get('iss')).toBe(origin);
  });
});

describe('token endpoint', () => {
  it('issues an hour-long mcp+jwt bound to the resource, no-store, and the tools answer', async () => {
    const c = await connected();
    expect(c.token_type).toBe('Bearer');
    expect(Number(c.expires_in)).toBe(3600);
    expect(c.scope).toBe('leads:read');
    const [header, payload] = c.access_token
      .split('.')
      .slice(0, 2)
      .map((p: string) => JSON.parse(Buffer.from(p, 'base64url').toString()));
    expect(header).toMatchObject({ alg: 'EdDSA', typ: 'mcp+jwt' });
    expect(payload).toMatchObject({ aud: `${origin}/v1/mcp`, acc: c.accountId, client_id: c.clientId });
    const res = await mcpCall(c.access_token);
    expect(res.status).toBe(200);
    expect((await res.json()).result.isError).toBeUndefined();
    expect((await mcpCall(c.access_token, '/mcp')).status).toBe(200);
  });

  it('answers errors in the OAuth format with no-store', async () => {
    const json = await ctx.json('/oauth/token', { grant_type: 'authorization_code' });
    expect(json.status).toBe(400);
    expect(json.headers.get('cache-control')).toBe('no-store');
    expect(await json.json()).toMatchObject({ error: 'invalid_request' });
    const reg = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const grant = await form('/oauth/token', {
      grant_type: 'password',
      client_id: reg.body.client_id as string,
    });
    expect((await grant.json()).error).toBe('unsupported_grant_type');
    const unknown = await form('/oauth/token', { grant_type: 'authorization_code', client_id: 'nobody' });
    expect(unknown.status).toBe(401);
    expect((await unknown.json()).error).toBe('invalid_client');
  });

  it('refuses a wrong PKCE verifier, another redirect URI and another resource', async () => {
    const firm = await firmWithOwner();
    const reg = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const id = reg.body.client_id as string;
    const a = await tokens(id, (await approve(firm.owner, id)).code, { code_verifier: 'w'.repeat(64) });
    expect(a.body.error).toBe('invalid_grant');
    const b = await tokens(id, (await approve(firm.owner, id)).code, { redirect_uri: `${REDIRECT}x` });
    expect(b.body.error).toBe('invalid_grant');
    const c = await tokens(id, (await approve(firm.owner, id)).code, {
      resource: 'https://elsewhere.example/mcp',
    });
    expect(c.body.error).toBe('invalid_target');
  });

  it('uses a code once: a second use ends what the first issued', async () => {
    const firm = await firmWithOwner();
    const reg = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const id = reg.body.client_id as string;
    const { code } = await approve(firm.owner, id);
    const first = await tokens(id, code);
    expect(first.status).toBe(200);
    expect((await mcpCall(first.body.access_token)).status).toBe(200);
    const second = await tokens(id, code);
    expect(second.body.error).toBe('invalid_grant');
    expect((await mcpCall(first.body.access_token)).status).toBe(401);
  });

  it('rotates refresh tokens, gives a parallel retry the same successor, and ends the grant on a later reuse', async () => {
    const c = await connected();
    const refresh = (token: string, extra: Record<string, string> = {}) =>
      form('/oauth/token', {
        grant_type: 'refresh_token',
        client_id: c.clientId,
        refresh_token: token,
        ...extra,
      });
    const one = await (await refresh(c.refresh_token)).json();
    expect(one.refresh_token).not.toBe(c.refresh_token);
    ctx.clock.advance(30_000);
    const retry = await (await refresh(c.refresh_token)).json();
    expect(retry.refresh_token).toBe(one.refresh_token);
    expect(retry.access_token).toBe(one.access_token);
    expect((await mcpCall(one.access_token)).status).toBe(200);
    const widen = await refresh(one.refresh_token, { scope: 'leads:read leads:write' });
    expect((await widen.json()).error).toBe('invalid_scope');
    ctx.clock.advance(3 * 60_000);
    const late = await refresh(c.refresh_token);
    expect((await late.json()).error).toBe('invalid_grant');
    expect((await mcpCall(one.access_token)).status).toBe(401);
    const trail = await c.owner.call('GET', 'activity');
    const actions = (trail.body.entries ?? trail.body.data ?? []).map((e: { action: string }) => e.action);
    expect(actions).toContain('mcp_grant.refresh_reused');
  });

  it('revokes a grant at /oauth/revoke and answers 200 for unknown tokens', async () => {
    const c = await connected();
    const unknown = await form('/oauth/revoke', { client_id: c.clientId, token: 'nothing-like-it' });
    expect(unknown.status).toBe(200);
    const res = await form('/oauth/revoke', { client_id: c.clientId, token: c.refresh_token });
    expect(res.status).toBe(200);
    expect((await mcpCall(c.access_token)).status).toBe(401);
  });
});

describe('grants', () => {
  it('lists an approval in Connected apps only once its code was exchanged (issue 39, 9)', async () => {
    const firm = await firmWithOwner();
    const reg = await register({
      client_name: 'Never back',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const clientId = reg.body.client_id as string;
    // Approved, but the application never came back for its token (closed, crashed, or a lure).
    await approve(firm.owner, clientId);
    expect((await firm.owner.call('GET', 'connected-apps')).body.apps).toEqual([]);
    const { code } = await approve(firm.owner, clientId);
    expect((await firm.owner.call('GET', 'connected-apps')).body.apps).toEqual([]);
    expect((await tokens(clientId, code)).status).toBe(200);
    const apps = (await firm.owner.call('GET', 'connected-apps')).body.apps;
    expect(apps).toHaveLength(1);
    expect(apps[0]).toMatchObject({ clientId, clientName: 'Never back' });
  });

  it('lists connected apps and stops a revoked one on the next call; another firm gets 404', async () => {
    const c = await connected();
    const list = await c.owner.call('GET', 'connected-apps');
    expect(list.status).toBe(200);
    const [app] = list.body.apps;
    expect(app).toMatchObject({
      clientId: c.clientId,
      kind: 'dynamic',
      redirectHost: 'claude.ai',
      scopes: ['leads:read'],
    });
    expect(app.approvedBy.email).toBe(c.owner.email);
    const other = await firmWithOwner();
    const foreign = await other.owner.call('POST', `connected-apps/${app.grantId}/revoke`);
    expect(foreign.status).toBe(404);
    const viewer = await portalCaller(ctx, c.accountId, 'viewer');
    expect((await viewer.call('POST', `connected-apps/${app.grantId}/revoke`)).status).toBe(403);
    expect((await mcpCall(c.access_token)).status).toBe(200);
    const res = await ctx.app.request(`/v1/portal/connected-apps/${app.grantId}/revoke`, {
      method: 'POST',
      headers: {
        cookie: c.owner.cookie,
        origin: ctx.services.config.publicPortalUrl,
        'x-csrf-token': c.owner.csrfToken,
      },
    });
    expect(res.status).toBe(204);
    expect((await mcpCall(c.access_token)).status).toBe(401);
    expect((await c.owner.call('GET', 'connected-apps')).body.apps).toEqual([]);
  });

  it('ends when the approver is demoted to viewer', async () => {
    const firm = await firmWithOwner();
    const admin = await portalCaller(ctx, firm.accountId, 'admin');
    const reg = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const id = reg.body.client_id as string;
    const issued = await tokens(id, (await approve(admin, id)).code);
    expect((await mcpCall(issued.body.access_token)).status).toBe(200);
    const ownerPrincipal = {
      sessionId: 'x',
      userId: firm.owner.userId,
      email: firm.owner.email,
      accountId: firm.accountId,
      role: 'owner' as const,
    };
    await changeMemberRole(ctx.services.portal, ownerPrincipal, admin.userId, 'viewer');
    expect((await mcpCall(issued.body.access_token)).status).toBe(401);
    const refreshed = await form('/oauth/token', {
      grant_type: 'refresh_token',
      client_id: id,
      refresh_token: issued.body.refresh_token!,
    });
    expect((await refreshed.json()).error).toBe('invalid_grant');
  });

  it('ends when the firm is closed, and when the approver is removed', async () => {
    const c = await connected();
    expect((await mcpCall(c.access_token)).status).toBe(200);
    await closeAccount(ctx.services.delivery, c.accountId);
    expect((await mcpCall(c.access_token)).status).toBe(401);

    const firm = await firmWithOwner();
    const admin = await portalCaller(ctx, firm.accountId, 'admin');
    const reg = await register({ redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const id = reg.body.client_id as string;
    const issued = await tokens(id, (await approve(admin, id)).code);
    expect((await mcpCall(issued.body.access_token)).status).toBe(200);
    const removed = await firm.owner.call('DELETE', `members/${admin.userId}`);
    expect(removed.status).toBeLessThan(300);
    expect((await mcpCall(issued.body.access_token)).status).toBe(401);
  });

  it('keeps token kinds apart: an MCP token is refused on REST', async () => {
    const c = await connected();
    const rest = await ctx.get('/v1/api/leads', c.access_token);
    expect(rest.status).toBe(401);
  });
});

describe('client metadata documents', () => {
  it('fetches the document from the client_id URL, checks it and caches it by its headers', async () => {
    clearClientDocumentCache();
    const firm = await firmWithOwner();
    const clientId = `${stubUrl}/oauth/client.json`;
    stubDoc = (url) => ({
      client_id: url,
      client_name: 'Stub AI',
      redirect_uris: [REDIRECT],
      token_endpoint_auth_method: 'none',
    });
    const before = stubHits;
    const q = new URLSearchParams(authorizeParams(clientId)).toString();
    const described = await firm.owner.call('GET', `oauth/mcp-consent?${q}`);
    expect(described.status, JSON.stringify(described.body)).toBe(200);
    expect(described.body.client).toMatchObject({
      kind: 'metadata-document',
      documentHost: new URL(stubUrl).host,
      name: 'Stub AI',
    });
    const { code } = await approve(firm.owner, clientId);
    const issued = await tokens(clientId, code);
    expect(issued.status).toBe(200);
    expect(stubHits - before).toBe(1);
    expect((await mcpCall(issued.body.access_token)).status).toBe(200);
  });

  it('refuses a document that does not name itself, and a private address the operator did not allow', async () => {
    clearClientDocumentCache();
    const firm = await firmWithOwner();
    stubDoc = () => ({ client_id: 'https://someone-else.example/c.json', redirect_uris: [REDIRECT] });
    const q = new URLSearchParams(authorizeParams(`${stubUrl}/other.json`)).toString();
    const res = await firm.owner.call('GET', `oauth/mcp-consent?${q}`);
    expect(res.status).toBe(400);
    expect(res.body.error.details[0].path).toBe('client_id');
    const privateUrl = new URLSearchParams(authorizeParams('https://10.0.0.5/client.json')).toString();
    const blocked = await firm.owner.call('GET', `oauth/mcp-consent?${privateUrl}`);
    expect(blocked.status).toBe(400);
  });

  it('the token and revocation endpoints never fetch a document: no one is signed in to ask for it', async () => {
    clearClientDocumentCache();
    stubDoc = (url) => ({ client_id: url, redirect_uris: [REDIRECT], token_endpoint_auth_method: 'none' });
    const before = stubHits;
    for (let i = 0; i < 5; i++) {
      const clientId = `${stubUrl}/anyone/${i}.json`;
      const token = await tokens(clientId, `svc_code_${i}`);
      expect(token.status, JSON.stringify(token.body)).toBe(400);
      expect(token.body.error).toBe('invalid_grant');
      const revoked = await form('/oauth/revoke', { client_id: clientId, token: `svc_rt_${i}` });
      expect(revoked.status).toBe(200);
    }
    expect(stubHits - before).toBe(0);
  });

  it('fetches at most 4 documents at once and 60 a minute per instance, whatever the hosts', async () => {
    clearClientDocumentCache();
    const firm = await firmWithOwner();
    // Five more document hosts (a host is host and port), each answering only when released.
    const held: (() => void)[] = [];
    const hosts = await Promise.all(
      Array.from({ length: 5 }, async () => {
        const server = createServer((req, res) => {
          held.push(() => {
            res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'max-age=600' });
            res.end(
              JSON.stringify({
                client_id: `${url}${req.url}`,
                redirect_uris: [REDIRECT],
                token_endpoint_auth_method: 'none',
              }),
            );
          });
        });
        await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
        const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
        return { server, url };
      }),
    );
    try {
      const describe = (clientId: string) =>
        firm.owner.call('GET', `oauth/mcp-consent?${new URLSearchParams(authorizeParams(clientId))}`);
      // Five at once on five hosts: four are fetched, the fifth is refused at once.
      const pending = hosts.map((h) => describe(`${h.url}/c0.json`));
      await expect.poll(() => held.length).toBe(4);
      const answers = await Promise.race([
        Promise.all(pending),
        new Promise<'waiting'>((r) => setTimeout(() => r('waiting'), 200)),
      ]);
      expect(answers).toBe('waiting');
      for (const release of held.splice(0)) release();
      const statuses = (await Promise.all(pending)).map((a) => a.status).sort();
      expect(statuses).toEqual([200, 200, 200, 200, 400]);
      // 56 more, 14 per host, answered at once: then the instance's minute is spent on any host.
      let fetched = 4;
      const auto = setInterval(() => {
        for (const release of held.splice(0)) release();
      }, 5);
      try {
        for (let i = 1; fetched < 60; i++)
          for (const h of hosts.slice(0, 4)) {
            if (fetched === 60) break;
            expect((await describe(`${h.url}/c${i}.json`)).status).toBe(200);
            fetched++;
          }
        const over = await describe(`${hosts[4]!.url}/fresh.json`);
        expect(over.status).toBe(400);
        expect(over.body.error.details[0].path).toBe('client_id');
      } finally {
        clearInterval(auto);
      }
      // A minute later the budget is back.
      ctx.clock.advance(61_000);
      const after = describe(`${hosts[4]!.url}/later.json`);
      await expect.poll(() => held.length).toBe(1);
      for (const release of held.splice(0)) release();
      expect((await after).status).toBe(200);
    } finally {
      for (const h of hosts) h.server.close();
    }
  });

  it('refuses a client_id whose normalised URL differs from its text (one client posing under another path)', async () => {
    clearClientDocumentCache();
    const firm = await firmWithOwner();
    // On a path-tenanted host the attacker's document lives at /attacker/…; its id reads as /victim/….
    const posing = [
      `${stubUrl}/victim/%2e%2e/attacker/client.json`,
      `${stubUrl}/victim/%2E%2e/attacker/client.json`,
      `${stubUrl}/victim/.%2e/attacker/client.json`,
      `${stubUrl}/victim/%2e/../attacker/client.json`,
      `${stubUrl}/victim\\..\\attacker/client.json`,
      `${stubUrl.replace('127.0.0.1', '127.000.000.001')}/attacker/client.json`,
    ];
    for (const clientId of posing) {
      stubDoc = () => ({
        client_id: clientId,
        client_name: 'Victim Firm AI',
        redirect_uris: [REDIRECT],
        token_endpoint_auth_method: 'none',
      });
      const before = stubHits;
      const q = new URLSearchParams(authorizeParams(clientId)).toString();
      const res = await firm.owner.call('GET', `oauth/mcp-consent?${q}`);
      expect(res.status, clientId).toBe(400);
      expect(res.body.error.details[0].path).toBe('client_id');
      expect(stubHits - before, clientId).toBe(0);
      const token = await tokens(clientId, 'code-x');
      expect(token.status, clientId).toBe(401);
      expect(token.body.error).toBe('invalid_client');
    }
  });
});
