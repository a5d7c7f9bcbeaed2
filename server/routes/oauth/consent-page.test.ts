import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPortalPageRoutes } from '../portal/pages.ts';
import { isMcpAuthorizeRequest, isMcpResource, MCP_CONSENT_PATH, SITE_CONSENT_PATH } from './consent-page.ts';

describe('isMcpResource: which consent /oauth/authorize shows', () => {
  it.each([
    ['https://api.example.com/v1/mcp', true],
    ['https://api.example.com/v1/mcp/', true],
    ['https://api.example.com/mcp', true],
    ['http://127.0.0.1:8787/v1/mcp', true],
    [null, false],
    ['', false],
    ['https://api.example.com/v1/api', false],
    ['https://api.example.com/v1/mcpx', false],
    ['https://api.example.com/other/mcp', false],
    ['not a url /v1/mcp', false],
  ])('%s → %s', (resource, expected) => {
    expect(isMcpResource(resource)).toBe(expected);
  });
});

describe('isMcpAuthorizeRequest: MCP consent or site Connect', () => {
  const q = (params: Record<string, string>) => new URLSearchParams(params).toString();
  it.each([
    ['resource names /v1/mcp', q({ client_id: 'mcpc_abc', resource: 'https://api.x.test/v1/mcp' }), true],
    [
      'resource names /mcp',
      q({ client_id: 'https://claude.ai/m', resource: 'https://api.x.test/mcp/' }),
      true,
    ],
    ['no resource, a registered client', q({ client_id: 'mcpc_0a1b2c' }), true],
    ['no resource, a metadata document', q({ client_id: 'https://claude.ai/oauth/meta' }), true],
    [
      'a site Connect (site_domain)',
      q({ client_id: 'svc for WordPress', site_domain: 'example.com' }),
      false,
    ],
    [
      'site_domain wins over resource',
      q({ resource: 'https://api.x.test/v1/mcp', site_domain: 'a.com' }),
      false,
    ],
    ['another resource', q({ client_id: 'mcpc_abc', resource: 'https://api.x.test/v1/api' }), false],
    ['no resource, an unknown client id', q({ client_id: 'svc for WordPress' }), false],
  ])('%s', (_, search, expected) => {
    expect(isMcpAuthorizeRequest(search)).toBe(expected);
  });
});

describe('the consent page is chosen by the server', () => {
  const distDir = mkdtempSync(join(tmpdir(), 'svc-consent-page-'));
  writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>portal</title>');
  afterAll(() => rmSync(distDir, { recursive: true, force: true }));
  const pages = createPortalPageRoutes({
    distDir,
    apiUrl: 'http://127.0.0.1:8787',
    embedUrl: 'http://127.0.0.1:8788',
  });
  const mcp = `?${new URLSearchParams({ response_type: 'code', client_id: 'mcpc_abc', resource: 'http://127.0.0.1:8787/v1/mcp', state: 'a b' })}`;
  const site = `?${new URLSearchParams({ response_type: 'code', client_id: 'svc for WordPress', site_domain: 'example.com' })}`;

  it.each([
    [
      'an MCP request at the authorization endpoint goes to the MCP page',
      SITE_CONSENT_PATH,
      mcp,
      MCP_CONSENT_PATH,
    ],
    [
      'a site Connect at the MCP page goes back to the Connect page',
      MCP_CONSENT_PATH,
      site,
      SITE_CONSENT_PATH,
    ],
  ])('%s, its query unchanged', async (_, path, search, to) => {
    const res = await pages.request(`${path}${search}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`${to}${search}`);
    expect(res.headers.get('cache-control')).toBe('no-store');
  });

  it.each([
    ['a site Connect', SITE_CONSENT_PATH, site],
    ['an MCP request', MCP_CONSENT_PATH, mcp],
  ])('%s is served the portal app on its own path, under the strict CSP', async (_, path, search) => {
    const res = await pages.request(`${path}${search}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(await res.text()).toContain('<title>portal</title>');
  });
});
