import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPortalPageRoutes } from '../portal/pages.ts';

/**
 * Issue 35: the authorization endpoint is advertised on the API's origin, the portal's session
 * lives on the portal's. A consent request that reaches the API's host goes on to the portal's
 * origin (one 302, to the consent path it is for, every parameter as sent); on the portal's host,
 * and wherever the two are one origin, the page is served as before.
 */
const distDir = mkdtempSync(join(tmpdir(), 'svc-consent-hosts-'));
writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>portal</title>');
afterAll(() => rmSync(distDir, { recursive: true, force: true }));

const routes = (apiUrl: string, portalUrl: string) =>
  createPortalPageRoutes({ distDir, apiUrl, embedUrl: 'http://127.0.0.1:8788', portalUrl });
const on = (pages: ReturnType<typeof routes>, url: string) => pages.request(new Request(url));

// The query as a client writes it: repeated and empty parameters, encoded spaces and slashes.
const mcpQuery =
  '?response_type=code&client_id=https%3A%2F%2Fclaude.ai%2Foauth%2Fmeta&redirect_uri=https%3A%2F%2Fclaude.ai%2Fapi%2Fmcp%2Fauth_callback' +
  '&state=a%20b%2Fc&code_challenge=abc_DEF-123&code_challenge_method=S256&scope=leads%3Aread&scope=&resource=http%3A%2F%2F127.0.0.1%3A8787%2Fv1%2Fmcp';
const siteQuery = '?response_type=code&client_id=svc+for+WordPress&site_domain=example.com&state=s';

describe('the defaults: API on 127.0.0.1, portal on localhost, one port', () => {
  const pages = routes('http://127.0.0.1:8787', 'http://localhost:8787');

  it.each([
    ['an MCP request at the authorization endpoint', '/oauth/authorize', mcpQuery, '/oauth/authorize/mcp'],
    ['an MCP request at the MCP page', '/oauth/authorize/mcp', mcpQuery, '/oauth/authorize/mcp'],
    ['a site Connect', '/oauth/authorize', siteQuery, '/oauth/authorize'],
    ['a site Connect at the MCP page', '/oauth/authorize/mcp', siteQuery, '/oauth/authorize'],
  ])(
    '%s on the API host goes to the portal origin’s page, the query byte for byte',
    async (_, path, q, to) => {
      const res = await on(pages, `http://127.0.0.1:8787${path}${q}`);
      expect(res.status).toBe(302);
      expect(res.headers.get('location')).toBe(`http://localhost:8787${to}${q}`);
      expect(res.headers.get('cache-control')).toBe('no-store');
    },
  );

  it('on the portal host the MCP page is served', async () => {
    const res = await on(pages, `http://localhost:8787/oauth/authorize/mcp${mcpQuery}`);
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>portal</title>');
  });

  it('on the portal host an MCP request at the authorization endpoint stays on that origin', async () => {
    const res = await on(pages, `http://localhost:8787/oauth/authorize${mcpQuery}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`/oauth/authorize/mcp${mcpQuery}`);
  });

  it('a host that is neither (a proxy that rewrites Host) is served, never sent round in a loop', async () => {
    const res = await on(pages, `http://10.0.0.5:8787/oauth/authorize/mcp${mcpQuery}`);
    expect(res.status).toBe(200);
  });
});

describe('separate host names', () => {
  const pages = routes('https://api.firm.example', 'https://portal.firm.example');

  it('the API host hands the request to the portal host', async () => {
    const res = await on(pages, `https://api.firm.example/oauth/authorize${mcpQuery}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`https://portal.firm.example/oauth/authorize/mcp${mcpQuery}`);
  });

  it('the portal host serves the page', async () => {
    const res = await on(pages, `https://portal.firm.example/oauth/authorize/mcp${mcpQuery}`);
    expect(res.status).toBe(200);
  });
});

describe('one origin for both', () => {
  const pages = routes('https://svc.firm.example', 'https://svc.firm.example/');

  it('serves the page where it was asked for', async () => {
    const res = await on(pages, `https://svc.firm.example/oauth/authorize/mcp${mcpQuery}`);
    expect(res.status).toBe(200);
  });

  it('one host name on two ports: the portal’s port is never taken for the API’s', async () => {
    const two = routes('https://svc.firm.example:8443', 'https://svc.firm.example');
    expect((await on(two, `https://svc.firm.example/oauth/authorize/mcp${mcpQuery}`)).status).toBe(200);
    const handed = await on(two, `https://svc.firm.example:8443/oauth/authorize/mcp${mcpQuery}`);
    expect(handed.headers.get('location')).toBe(`https://svc.firm.example/oauth/authorize/mcp${mcpQuery}`);
  });
});
