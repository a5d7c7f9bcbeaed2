import { describe, expect, it } from 'vitest';
import { isUsableRedirectUri } from './redirect-uris.ts';

describe('private-use redirect schemes (issue 39, 9)', () => {
  it.each([
    'cursor://anysphere.cursor-mcp/oauth/callback',
    'vscode://saoudrizwan.claude-dev/mcp-auth/callback/abc123',
    'vscode-insiders://saoudrizwan.claude-dev/mcp-auth/callback/abc123',
  ])('accepts the scheme of a real MCP client: %s', (uri) => {
    expect(isUsableRedirectUri(uri)).toBe(true);
  });

  // Each of these is a scheme some operating system hands to a program that is not an MCP client
  // (Office, Windows Search, Teams, a shell helper): an attacker could register it and have the
  // consent page's approval open that program with a URL of their choosing.
  it.each([
    'ms-word:ofe|u|https://attacker.example/x.docx',
    'search-ms:query=x&crumb=location:\\\\attacker.example\\share',
    'msteams://teams.microsoft.com/l/x',
    'ms-msdt:/id PCWDiagnostic',
    'intent://x#Intent;end',
    'tel:+15555550100',
    'sms:+15555550100',
    'slack://open',
    'com.example.app:/cb',
    'CURSOR://anysphere.cursor-mcp/oauth/callback',
  ])('refuses any other private-use scheme: %s', (uri) => {
    expect(isUsableRedirectUri(uri)).toBe(false);
  });
});
