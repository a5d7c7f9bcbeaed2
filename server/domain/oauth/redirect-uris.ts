import { isLoopbackHost } from '../licensing/domains.ts';

/** Schemes a redirect may never use, even as a native app's private-use scheme. */
const FORBIDDEN_SCHEMES = new Set([
  'javascript:',
  'data:',
  'vbscript:',
  'file:',
  'about:',
  'blob:',
  'filesystem:',
  'ftp:',
  'ws:',
  'wss:',
  'mailto:',
]);

/**
 * Whether a redirect URI may be registered: HTTPS; plain HTTP only to a loopback host (RFC 8252
 * §7.3: VS Code's, Claude Code's local callbacks); a native app's private-use scheme (RFC 8252
 * §7.1: Cursor's `cursor://…`). Never a fragment, credentials or a script/data scheme.
 */
export function isUsableRedirectUri(text: string): boolean {
  if (text.length > 2000 || !URL.canParse(text)) return false;
  const url = new URL(text);
  if (url.hash || text.includes('#') || url.username || url.password) return false;
  if (url.protocol === 'https:') return url.hostname !== '';
  if (url.protocol === 'http:') return isLoopbackHost(url.hostname.replace(/^\[|\]$/g, ''));
  return !FORBIDDEN_SCHEMES.has(url.protocol) && /^[a-z][a-z0-9+.-]*:$/.test(url.protocol);
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
