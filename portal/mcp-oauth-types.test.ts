import { describe, expect, it } from 'vitest';
import { clientIdentity } from './mcp-oauth-types.ts';

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
