import { isIP } from 'node:net';
import { getPublicSuffix } from 'tldts';

/**
 * Site domains (DESIGN.md §4): parsed with the WHATWG URL parser, lower-cased, punycode, trailing
 * dot and port dropped, `www.` folded into the apex. `*.example.com` matches subdomains only.
 */
export function canonicalHost(input: string): string | null {
  const raw = input.trim();
  if (raw === '' || raw.length > 2048 || /\s/.test(raw)) return null;
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(raw) ? raw : `http://${raw}`;
  let host: string;
  try {
    host = new URL(withScheme).hostname;
  } catch {
    return null;
  }
  host = host.replace(/\.+$/, '');
  if (host === '' || host.includes('%')) return null;
  if (host.startsWith('[')) return host; // IPv6 literal, already normalised by the parser
  if (isIP(host)) return host;
  if (host.startsWith('www.') && host.length > 4 && host.slice(4).includes('.')) host = host.slice(4);
  if (!/^[a-z0-9.-]+$/.test(host) || host.split('.').some((label) => label === '' || label.length > 63))
    return null;
  return host;
}

export type DomainPattern = { kind: 'exact'; host: string } | { kind: 'wildcard'; suffix: string };

/**
 * Parses an allowed-domains entry. A wildcard over a public suffix (`*.com`, `*.co.uk`,
 * `*.github.io`) would hand the license to strangers, so it is refused.
 */
export function parseDomainPattern(entry: string): DomainPattern | { error: string } {
  const trimmed = entry.trim().toLowerCase();
  if (trimmed.startsWith('*.')) {
    const base = canonicalHost(trimmed.slice(2));
    if (!base || base.startsWith('[') || isIP(base))
      return { error: `"${entry}" is not a valid wildcard domain` };
    if (isPublicSuffix(base))
      return { error: `"${entry}" covers a public suffix; list the firm's own domain` };
    return { kind: 'wildcard', suffix: base };
  }
  const host = canonicalHost(trimmed);
  if (!host) return { error: `"${entry}" is not a valid domain` };
  if (!isIP(host.replace(/^\[|\]$/g, '')) && !isDevHost(host) && isPublicSuffix(host)) {
    return { error: `"${entry}" is a public suffix, not a site` };
  }
  return { kind: 'exact', host };
}

function isPublicSuffix(host: string): boolean {
  const suffix = getPublicSuffix(host, { allowPrivateDomains: true });
  return suffix === host || !host.includes('.');
}

/**
 * Allowed-domain entries as parsed, by entry (null: not a valid entry). Every embed session and
 * every embed-token call checks its page's host against its license's entries, and parsing one
 * (a URL parse and a public-suffix lookup) cost about 1.5 % of an embed session's CPU. Entries
 * are the licenses' stored lists, so few; the map is emptied should it ever pass the bound.
 */
const parsedEntries = new Map<string, DomainPattern | null>();
const PARSED_ENTRIES_MAX = 10_000;

function allowedPatternOf(entry: string): DomainPattern | null {
  let pattern = parsedEntries.get(entry);
  if (pattern === undefined) {
    const parsed = parseDomainPattern(entry);
    pattern = 'error' in parsed ? null : parsed;
    if (parsedEntries.size >= PARSED_ENTRIES_MAX) parsedEntries.clear();
    parsedEntries.set(entry, pattern);
  }
  return pattern;
}

/** True when `host` (canonical) is covered by one of the license's allowed-domain entries. */
export function isDomainAllowed(host: string, allowed: readonly string[]): boolean {
  return allowed.some((entry) => {
    const pattern = allowedPatternOf(entry);
    if (!pattern) return false;
    if (pattern.kind === 'exact') return pattern.host === host;
    return host.endsWith(`.${pattern.suffix}`);
  });
}

/** localhost, *.localhost, *.test, loopback and private IPs: free of seats and of the allow list. */
export function isDevHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost') || host.endsWith('.test')) return true;
  const bare = host.replace(/^\[|\]$/g, '');
  const family = isIP(bare);
  if (family === 4) return isPrivateIpv4(bare);
  if (family === 6) return isPrivateIpv6(bare);
  return false;
}

/**
 * The developer's own machine: `localhost`, `*.localhost`, 127.0.0.0/8 and ::1 (also as
 * ::ffff:127.x). Unlike other development hosts, nobody else on the network can answer for it.
 */
export function isLoopbackHost(host: string): boolean {
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  const bare = host.replace(/^\[|\]$/g, '');
  if (bare === '::1') return true;
  const v4 = isIP(bare) === 4 ? bare : /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(bare)?.[1];
  return v4?.startsWith('127.') === true;
}

function isPrivateIpv4(ip: string): boolean {
  const [a = 0, b = 0] = ip.split('.').map(Number);
  return (
    a === 127 ||
    a === 10 ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 169 && b === 254)
  );
}

function isPrivateIpv6(ip: string): boolean {
  if (ip === '::1') return true;
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(ip);
  if (mapped) return isPrivateIpv4(mapped[1]!);
  const first = Number.parseInt(ip.split(':')[0] || '0', 16);
  return (first & 0xfe00) === 0xfc00 || (first & 0xffc0) === 0xfe80;
}
