import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer, type Server as HttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { getRequestListener } from '@hono/node-server';
import { auth as v1Auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client as V1Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport as V1Transport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedDemoLeads } from '../domain/demo/leads.ts';
import { clearClientDocumentCache } from '../domain/oauth/client-documents.ts';
import { portalCaller } from '../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

/**
 * A Client ID Metadata Document registration through the official v1 SDK client: the client's id is
 * an HTTPS URL served on loopback with a certificate made at test time (openssl), the server fetches
 * the document through its outbound sender, trusting that certificate only because the test hands
 * it the PEM (`fetchRules.ca`). The owner approves in the portal; the SDK exchanges the code and
 * calls a tool. Without the certificate the same document is refused (the TLS check is real).
 */
let ctx: TestContext;
let api: Server;
let apiUrl: string;
let docs: HttpsServer;
let clientId: string;
let certPem: string;
let handler: (req: IncomingMessage, res: ServerResponse) => void = () => {};
const redirectUrl = 'http://127.0.0.1:33419/callback';

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'svc-cimd-'));
  try {
    // biome-ignore format: one openssl command, flags paired on lines
    execFileSync('openssl', [
      'req', '-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1',
      '-subj', '/CN=127.0.0.1', '-addext', 'subjectAltName=IP:127.0.0.1',
      '-keyout', join(dir, 'key.pem'), '-out', join(dir, 'cert.pem'),
    ], { stdio: 'ignore' });
    certPem = readFileSync(join(dir, 'cert.pem'), 'utf8');
    const key = readFileSync(join(dir, 'key.pem'), 'utf8');
    docs = createHttpsServer({ key, cert: certPem }, (req, res) => {
      if (req.url !== '/mcp/client.json') return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(
        JSON.stringify({
          client_id: clientId,
          client_name: 'CIMD host app',
          redirect_uris: [redirectUrl],
          grant_types: ['authorization_code', 'refresh_token'],
          response_types: ['code'],
          token_endpoint_auth_method: 'none',
        }),
      );
    });
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  await new Promise<void>((r) => docs.listen(0, '127.0.0.1', r));
  clientId = `https://127.0.0.1:${(docs.address() as AddressInfo).port}/mcp/client.json`;

  api = createServer((req, res) => handler(req, res));
  await new Promise<void>((r) => api.listen(0, '127.0.0.1', r));
  apiUrl = `http://127.0.0.1:${(api.address() as AddressInfo).port}`;
  ctx = await createTestContext({
    PUBLIC_API_URL: apiUrl,
    NODE_ENV: 'test',
    WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
  });
  handler = getRequestListener(ctx.app.fetch);
}, 60_000);
afterAll(async () => {
  api?.close();
  docs?.close();
  await ctx?.close();
});

function provider(owner: Awaited<ReturnType<typeof portalCaller>>) {
  let info: Record<string, unknown> | undefined;
  let tokens: Record<string, unknown> | undefined;
  let verifier = '';
  const state = { code: undefined as string | undefined, consent: undefined as unknown };
  return {
    state,
    impl: {
      redirectUrl,
      clientMetadataUrl: clientId,
      clientMetadata: {
        client_name: 'CIMD host app',
        redirect_uris: [redirectUrl],
        token_endpoint_auth_method: 'none',
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
        expect(url.searchParams.get('client_id')).toBe(clientId);
        const described = await owner.call('GET', `oauth/mcp-consent?${url.searchParams}`);
        state.consent = described.body;
        if (described.status !== 200) return;
        const res = await owner.call('POST', 'oauth/mcp-consent', {
          ...Object.fromEntries(url.searchParams),
          decision: 'approve',
        });
        expect(res.status, JSON.stringify(res.body)).toBe(200);
        state.code = new URL(res.body.redirectTo).searchParams.get('code') ?? undefined;
      },
    },
  };
}

describe('Client ID Metadata Document through the v1 SDK', () => {
  it('registers by its HTTPS document, is approved, exchanges the code and calls a tool', async () => {
    const { account } = await ctx.seed.firm();
    await seedDemoLeads(ctx.services.licensing, { accountId: account.id, leads: 4, days: 30 });
    const owner = await portalCaller(ctx, account.id, 'owner');
    // In place: the portal's consent routes hold the same rules object (their deps are a spread copy).
    const rules = ctx.services.oauth.fetchRules;
    rules.ca = certPem;
    clearClientDocumentCache();
    try {
      const p = provider(owner);
      // biome-ignore lint/suspicious/noExplicitAny: the provider satisfies the SDK's interface structurally
      const sdkProvider = p.impl as any;
      const serverUrl = `${apiUrl}/v1/mcp`;
      expect(await v1Auth(sdkProvider, { serverUrl })).toBe('REDIRECT');
      expect(JSON.stringify(p.state.consent)).toContain('"name":"CIMD host app"');
      expect(await v1Auth(sdkProvider, { serverUrl, authorizationCode: p.state.code! })).toBe('AUTHORIZED');
      const client = new V1Client({ name: 'cimd', version: '1' });
      await client.connect(new V1Transport(new URL(serverUrl), { authProvider: sdkProvider }));
      const stats = await client.callTool({ name: 'get_directory_stats', arguments: {} });
      expect(stats.isError).toBeFalsy();
      expect((stats.structuredContent as { totalLeadsAllTime: number }).totalLeadsAllTime).toBe(4);
      await client.close();
    } finally {
      delete rules.ca;
    }
  }, 60_000);

  it('refuses the same document when the server does not trust its certificate', async () => {
    const { account } = await ctx.seed.firm();
    const owner = await portalCaller(ctx, account.id, 'owner');
    clearClientDocumentCache();
    const p = provider(owner);
    // biome-ignore lint/suspicious/noExplicitAny: the provider satisfies the SDK's interface structurally
    expect(await v1Auth(p.impl as any, { serverUrl: `${apiUrl}/v1/mcp` })).toBe('REDIRECT');
    expect(p.state.code).toBeUndefined();
    const body = JSON.stringify(p.state.consent);
    expect(body).toContain('could not be fetched');
    expect(body).not.toMatch(/self.signed|certificate|stack/i);
  }, 60_000);
});
