import { describe, expect, it } from 'vitest';
import { clientIdentity, isMcpAuthorizeRequest, isMcpResource } from './mcp-oauth-types.ts';

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

describe('clientIdentity: what identifies an application whose name is only a claim', () => {
  it('a metadata document: the host that publishes it', () => {
    expect(
      clientIdentity({
        clientId: 'https://claude.ai/oauth/mcp-oauth-client-metadata',
        kind: 'metadata-document',
      }),
    ).toBe('claude.ai');
    expect(
      clientIdentity({
        clientId: 'https://x.test/doc',
        kind: 'metadata-document',
        documentHost: 'docs.x.test',
      }),
    ).toBe('docs.x.test');
  });
  it('a dynamic registration: the client id svc gave it, even when it looks like a URL', () => {
    expect(clientIdentity({ clientId: 'mcp_dyn_abc', kind: 'dynamic' })).toBe('mcp_dyn_abc');
    expect(clientIdentity({ clientId: 'https://claude.ai/x', kind: 'dynamic' })).toBe('https://claude.ai/x');
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
