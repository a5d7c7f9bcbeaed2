import { BlockList, isIP } from 'node:net';
import { getConnInfo } from '@hono/node-server/conninfo';
import type { Context } from 'hono';

/**
 * Which proxies in front of us are trusted to append to `X-Forwarded-For`:
 * - `{ hops: 0 }`: none (the socket's peer is the client);
 * - `{ hops: n }`: exactly n proxies (a CDN and a load balancer = 2); the client is the n-th
 *   address counting back from the socket's peer;
 * - `{ cidrs }`: any proxy inside these networks; the client is the nearest address outside them.
 */
export type TrustProxy = { hops: number } | { cidrs: string[]; list: BlockList };

/**
 * Parses `TRUST_PROXY`: `false`/`true` (= 0 / 1 hop, as before), a hop count, or a comma list of
 * addresses and CIDRs (`10.0.0.0/8, 2001:db8::/32`). Throws a readable message on anything else.
 */
export function parseTrustProxy(text: string | undefined): TrustProxy {
  const value = (text ?? '').trim().toLowerCase();
  if (['', 'false', 'no', 'off'].includes(value)) return { hops: 0 };
  if (['true', 'yes', 'on'].includes(value)) return { hops: 1 };
  if (/^\d{1,2}$/.test(value)) return { hops: Number(value) };
  const list = new BlockList();
  const cidrs = value.split(',').map((part) => part.trim());
  for (const cidr of cidrs) {
    const [address = '', prefix] = cidr.split('/');
    const family = isIP(address);
    const bits = prefix === undefined ? (family === 6 ? 128 : 32) : Number(prefix);
    if (
      !family ||
      !Number.isInteger(bits) ||
      bits < 0 ||
      bits > (family === 6 ? 128 : 32) ||
      (prefix !== undefined && !/^\d+$/.test(prefix))
    )
      throw new Error('must be true, false, a hop count, or a comma list of proxy CIDRs (10.0.0.0/8)');
    list.addSubnet(address, bits, family === 6 ? 'ipv6' : 'ipv4');
  }
  return { cidrs, list };
}

/** `::ffff:192.0.2.1` is the IPv4 client it wraps. */
function plain(address: string): string {
  const trimmed = address.trim().replace(/^\[(.*)\]$/, '$1');
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(trimmed);
  return mapped ? mapped[1]! : trimmed;
}

function isTrusted(list: BlockList, address: string): boolean {
  const family = isIP(address);
  return family !== 0 && list.check(address, family === 6 ? 'ipv6' : 'ipv4');
}

function peerOf(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    // app.request() in tests has no socket.
    return undefined;
  }
}

/**
 * The caller's IP. `X-Forwarded-For` entries count only as far as trusted proxies wrote them:
 * anything further left is whatever the client chose to send.
 */
export function clientIp(c: Context, trust: TrustProxy): string {
  return clientIpOf(peerOf(c), c.req.header('x-forwarded-for'), trust);
}

/** `clientIp` from the socket's peer and the `X-Forwarded-For` header, for a caller without a Hono context. */
export function clientIpOf(
  peer: string | undefined,
  forwardedFor: string | undefined,
  trust: TrustProxy,
): string {
  // Nearest first: the socket's peer, then the forwarded entries from right to left.
  const forwarded = (forwardedFor ?? '').split(',').map(plain).filter(Boolean).reverse();
  const chain = [...(peer ? [plain(peer)] : []), ...forwarded];
  if ('hops' in trust) {
    // Without a socket (tests) the first forwarded entry stands where the peer would be.
    const index = peer ? trust.hops : Math.max(0, trust.hops - 1);
    const pick = trust.hops === 0 ? (peer ? plain(peer) : undefined) : (chain[index] ?? chain.at(-1));
    return pick && isIP(pick) ? pick : 'unknown';
  }
  for (const address of chain) {
    if (!isIP(address)) return 'unknown';
    if (!isTrusted(trust.list, address)) return address;
  }
  return chain.at(-1) ?? 'unknown';
}

/**
 * The rate-limit key of an address: IPv4 as is, IPv6 by its /64 (one subscriber's whole prefix,
 * which a single host can otherwise rotate through freely).
 */
export function ipRateKey(ip: string): string {
  if (isIP(ip) !== 6) return ip;
  return `${expandIpv6(ip).slice(0, 4).join(':')}::/64`;
}

function expandIpv6(ip: string): string[] {
  const [head = '', tail] = ip.toLowerCase().split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  // An embedded IPv4 tail (::1.2.3.4) occupies two groups.
  const last = right.at(-1) ?? left.at(-1);
  const v4 = last?.includes('.') ? 1 : 0;
  const missing = 8 - left.length - right.length - v4;
  const groups = tail === undefined ? left : [...left, ...Array(missing).fill('0'), ...right];
  return groups.map((g) => (g.includes('.') ? g : g.replace(/^0+(?=.)/, '')));
}

/**
 * Addresses that name a proxy, a private network or this machine rather than a visitor: loopback,
 * private, link-local, shared (carrier-grade NAT) and unique-local. Seen as the client, they mean
 * a proxy that `TRUST_PROXY` does not name, or a test on this machine; every visitor would then
 * share one "network", and three leads in an hour would hold every lead after them.
 */
const SHARED_SOURCES = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
] as const)
  SHARED_SOURCES.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of [
  ['::', 127], // :: and ::1
  ['fc00::', 7],
  ['fe80::', 10],
] as const)
  SHARED_SOURCES.addSubnet(net, prefix, 'ipv6');

/**
 * The client's network, the unit spam signals count leads by: IPv4 by its /24, IPv6 by its /64
 * (what one subscriber or one rented block can rotate through). Null when the address is unknown
 * or tells no visitor apart from another (`SHARED_SOURCES`): no network signal is counted then.
 */
export function networkOf(ip: string | undefined): string | null {
  if (!ip || !isIP(ip)) return null;
  const v4 = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(ip)?.[1] ?? (isIP(ip) === 4 ? ip : undefined);
  if (v4) {
    if (SHARED_SOURCES.check(v4, 'ipv4')) return null;
    return `${v4.split('.').slice(0, 3).join('.')}.0/24`;
  }
  if (SHARED_SOURCES.check(ip, 'ipv6')) return null;
  return ipRateKey(ip);
}
