import { isLoopbackHost } from '../licensing/domains.ts';

/**
 * The private-use schemes (RFC 8252 §7.1) of MCP clients people actually use, and nothing else:
 * `cursor:` is Cursor's own callback (`cursor://anysphere.cursor-mcp/oauth/callback`); `vscode:` and
 * `vscode-insiders:` are how VS Code extensions that are MCP clients (Cline) get their callback from
 * the editor. Any other scheme opens whatever program the operating system gave it (`ms-word:`,
 * `search-ms:`, `ms-msdt:`), so an approval could launch that program with the attacker's URL.
 * Claude, ChatGPT and VS Code's own client return over HTTPS or loopback HTTP and need none.
 * docs/mcp-clients.md lists them and says where each was learned.
 */
const PRIVATE_USE_SCHEMES: ReadonlySet<string> = new Set(['cursor:', 'vscode:', 'vscode-insiders:']);

/**
 * Whether a redirect URI may be registered: HTTPS; plain HTTP only to a loopback host (RFC 8252
 * §7.3: VS Code's, Claude Code's local callbacks); one of the allowed clients' private-use schemes,
 * written in lower case with an authority (the form those clients send, so the exact-match
 * comparison at authorization sees the text the person approved). Never a fragment or credentials.
 */
export function isUsableRedirectUri(text: string): boolean {
  if (text.length > 2000 || !URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.hash || text.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''));
  return PRIVATE_USE_SCHEMES.has(url.protocol) && text.startsWith(`${url.protocol}//`) && url.host !== '';
}

/**
 * Whether `requested` is one of `registered`: exact string match, except that a loopback HTTP
 * redirect may use any port (RFC 8252 §7.3: the native app picks a free port at sign-in).
 */
export function redirectMatches(registered: readonly string[], requested: string): boolean {
  if (registered.includes(requested)) return true;
  if (!URL.canParse(requested)) return false;
  const want = new URL(requested);
  if (want.protocol !== 'http:' || !isLoopbackHost(want.hostname.replace(/^\[|\]$/g, ''))) return false;
  return registered.some((r) => {
    if (!URL.canParse(r)) return false;
    const have = new URL(r);
    return (
      have.protocol === 'http:' &&
      have.hostname === want.hostname &&
      have.pathname === want.pathname &&
      have.search === want.search
    );
  });
}
