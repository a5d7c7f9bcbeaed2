import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { getRequestListener } from '@hono/node-server';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { auth as v1Auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLeads } from '../domain/demo/leads.ts';
import { portalCaller } from '../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

/**
 * The official SDK clients through the whole OAuth flow against the API on a loopback port: the v2
 * client's transport with an `authProvider`, and the v1 SDK's `auth()`. Each discovers the metadata
 * from the 401 challenge, registers by DCR, is approved through the portal API by a signed-in owner,
 * exchanges the code, calls the three tools, refreshes, and fails after a revocation in the portal.
 */
let ctx: TestContext;
let server: Server;
let apiUrl: string;
let handler: (req: IncomingMessage, res: ServerResponse) => void = () => {};

beforeAll(async () => {
  server = createServer((req, res) => handler(req, res));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  ctx = await createTestContext({ PUBLIC_API_URL: apiUrl, NODE_ENV: 'test' });
  handler = getRequestListener(ctx.app.fetch);
}, 60_000);
afterAll(async () => {
  server?.close();
  await ctx?.close();
});

type Owner = Awaited<ReturnType<typeof portalCaller>>;

/** An OAuth client provider as a host app keeps one: memory storage, and "the browser" is the portal API. */
function provider(owner: Owner, name: string) {
  let info: Record<string, unknown> | undefined;
  let tokens: Record<string, unknown> | undefined;
  let verifier = '';
  const state = {
    redirects: 0,
    code: undefined as string | undefined,
    iss: undefined as string | undefined,
    approve: true,
  };
  const redirectUrl = 'http://127.0.0.1:33418/callback';
  return {
    state,
    get tokens() {
      return tokens;
    },
    set accessToken(value: string) {
      tokens = { ...tokens, access_token: value };
    },
    impl: {
      get redirectUrl() {
        return redirectUrl;
      },
      get clientMetadata() {
        return {
          client_name: name,
          redirect_uris: [redirectUrl],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        };
      },
      clientInformation: () => info,
      saveClientInformation: (value: Record<string, unknown>) => {
        info = value;
      },
      tokens: () => tokens,
      saveTokens: (value: Record<string, unknown>) => {
        tokens = value;
      },
      saveCodeVerifier: (value: string) => {
        verifier = value;
      },
      codeVerifier: () => verifier,
      async redirectToAuthorization(url: URL) {
        state.redirects++;
        expect(`${url.origin}${url.pathname}`).toBe(`${apiUrl}/oauth/authorize`);
        if (!state.approve) return;
        const params = Object.fromEntries(url.searchParams);
        const described = await owner.call('GET', `oauth/mcp-consent?${url.searchParams}`);
        expect(described.status, JSON.stringify(described.body)).toBe(200);
        expect(described.body.client.name).toBe(name);
        const res = await owner.call('POST', 'oauth/mcp-consent', { ...params, decision: 'approve' });
        expect(res.status).toBe(200);
        const back = new URL(res.body.redirectTo);
        state.code = back.searchParams.get('code') ?? undefined;
        state.iss = back.searchParams.get('iss') ?? undefined;
      },
    },
  };
}

interface ToolCaller {
  callTool(p: { name: string; arguments: Record<string, unknown> }): Promise<{
    isError?: boolean;
    structuredContent?: Record<string, unknown>;
  }>;
}

async function threeTools(client: ToolCaller) {
  const leads = await client.callTool({ name: 'get_leads', arguments: { limit: 5 } });
  expect(leads.isError).toBeFalsy();
  expect(leads.structuredContent?.leads).toHaveLength(5);
  const results = await client.callTool({ name: 'get_calculator_results', arguments: { limit: 3 } });
  expect(results.isError).toBeFalsy();
  const stats = await client.callTool({ name: 'get_directory_stats', arguments: {} });
  expect(stats.isError).toBeFalsy();
  return stats.structuredContent?.totalLeadsAllTime as number;
}

async function firm(leads: number) {
  const { account } = await ctx.seed.firm();
  await seedDemoLeads(ctx.services.licensing, { accountId: account.id, leads, days: 30 });
  return { accountId: account.id, owner: await portalCaller(ctx, account.id, 'owner') };
}

async function revokeAll(owner: Owner) {
  const apps = (await owner.call('GET', 'connected-apps')).body.apps as { grantId: string }[];
  expect(apps.length).toBe(1);
  const res = await ctx.app.request(`/v1/portal/connected-apps/${apps[0]!.grantId}/revoke`, {
    method: 'POST',
    headers: {
      cookie: owner.cookie,
      origin: ctx.services.config.publicPortalUrl,
      'x-csrf-token': owner.csrfToken,
    },
  });
  expect(res.status).toBe(204);
}

describe('MCP OAuth with the official SDK clients', () => {
  it('v2 client: authProvider, DCR, consent, tools, refresh, revocation', async () => {
    const { owner } = await firm(12);
    const p = provider(owner, 'SDK v2 host');
    const mcpUrl = new URL(`${apiUrl}/v1/mcp`);
    // biome-ignore lint/suspicious/noExplicitAny: the provider satisfies the SDK's interface structurally
    const authProvider = p.impl as any;
    const first = new StreamableHTTPClientTransport(mcpUrl, { authProvider });
    await expect(new Client({ name: 'v2', version: '1' }).connect(first)).rejects.toThrow();
    expect(p.state.redirects).toBe(1);
    expect(p.state.iss).toBe(apiUrl);
    await first.finishAuth(p.state.code!, p.state.iss);
    expect(p.tokens?.refresh_token).toMatch(/^svc_mrt_/);

    const client = new Client({ name: 'v2', version: '1' });
    await client.connect(new StreamableHTTPClientTransport(mcpUrl, { authProvider }));
    expect(await threeTools(client as unknown as ToolCaller)).toBe(12);

    // A stale access token: the transport refreshes with the refresh token and retries.
    const oldRefresh = p.tokens?.refresh_token;
    p.accessToken = 'expired-or-garbage';
    expect(await threeTools(client as unknown as ToolCaller)).toBe(12);
    expect(p.tokens?.refresh_token).not.toBe(oldRefresh);

    await revokeAll(owner);
    p.state.approve = false;
    await expect(client.callTool({ name: 'get_directory_stats', arguments: {} })).rejects.toThrow();
    await client.close();
  }, 90_000);

  it('v1 SDK auth(): discovery, DCR, consent, code exchange, tools, refresh, revocation', async () => {
    const { owner } = await firm(7);
    const p = provider(owner, 'SDK v1 host');
    // biome-ignore lint/suspicious/noExplicitAny: the provider satisfies the SDK's interface structurally
    const sdkProvider = p.impl as any;
    const serverUrl = `${apiUrl}/mcp`;
    expect(await v1Auth(sdkProvider, { serverUrl })).toBe('REDIRECT');
    expect(await v1Auth(sdkProvider, { serverUrl, authorizationCode: p.state.code! })).toBe('AUTHORIZED');
    const client = new V1Client({ name: 'v1', version: '1' });
    await client.connect(new V1Transport(new URL(serverUrl), { authProvider: sdkProvider }));
    expect(await threeTools(client as unknown as ToolCaller)).toBe(7);

    const before = p.tokens?.refresh_token;
    expect(await v1Auth(sdkProvider, { serverUrl })).toBe('AUTHORIZED');
    expect(p.tokens?.refresh_token).not.toBe(before);
    const refreshed = new V1Client({ name: 'v1', version: '1' });
    await refreshed.connect(new V1Transport(new URL(serverUrl), { authProvider: sdkProvider }));
    expect(await threeTools(refreshed as unknown as ToolCaller)).toBe(7);

    await revokeAll(owner);
    p.state.approve = false;
    await expect(refreshed.callTool({ name: 'get_directory_stats', arguments: {} })).rejects.toThrow();
    await client.close();
    await refreshed.close();
  }, 90_000);
});
