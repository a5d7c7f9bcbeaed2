import { promises as dns, type LookupAddress } from 'node:dns';
import { BlockList, isIP, type LookupFunction } from 'node:net';

/** Turns a host name into addresses; the default asks the system resolver. Tests inject one. */
export type Resolver = (host: string) => Promise<LookupAddress[]>;

export const systemResolver: Resolver = (host) => dns.lookup(host, { all: true, verbatim: true });

export class UnsafeDestinationError extends Error {
  override name = 'UnsafeDestinationError';
  readonly code = 'UNSAFE_DESTINATION';
}

const V4: [string, number][] = [
  ['0.0.0.0', 8], // "this network"
  ['10.0.0.0', 8],
  ['100.64.0.0', 10], // carrier-grade NAT
  ['127.0.0.0', 8],
  ['169.254.0.0', 16], // link-local, incl. the 169.254.169.254 metadata service
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4], // multicast
  ['240.0.0.0', 4], // reserved and broadcast
];
const V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['100::', 64], // discard
  ['2001::', 32], // Teredo (tunnels to an embedded IPv4)
  ['2001:db8::', 32],
  ['2002::', 16], // 6to4 (embeds an IPv4)
  ['64:ff9b:1::', 48], // local-use NAT64
  ['fc00::', 7], // unique local, incl. fd00:ec2::254 (AWS metadata over IPv6)
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const blocked = new BlockList();
for (const [net, prefix] of V4) blocked.addSubnet(net, prefix, 'ipv4');
for (const [net, prefix] of V6) blocked.addSubnet(net, prefix, 'ipv6');

/** The eight 16-bit groups of an IPv6 address (zone id dropped, dotted tail folded), or undefined. */
function ipv6Groups(address: string): number[] | undefined {
  let text = address
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .split('%')[0]!;
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (dotted) {
    const [a, b, c, d] = dotted.slice(1).map(Number) as [number, number, number, number];
    if ([a, b, c, d].some((n) => n > 255)) return undefined;
    text = `${text.slice(0, dotted.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const halves = text.split('::');
  if (halves.length > 2) return undefined;
  const parse = (part: string) => (part === '' ? [] : part.split(':').map((g) => Number.parseInt(g, 16)));
  const head = parse(halves[0]!);
  const tail = halves.length === 2 ? parse(halves[1]!) : [];
  const fill = halves.length === 2 ? 8 - head.length - tail.length : 0;
  const groups = [...head, ...new Array<number>(Math.max(fill, 0)).fill(0), ...tail];
  if (groups.length !== 8 || groups.some((g) => !Number.isInteger(g) || g < 0 || g > 0xffff))
    return undefined;
  return groups;
}

/** An IPv4 address carried inside an IPv6 one (mapped, compatible or NAT64), if any. */
function embeddedIpv4(groups: number[]): string | undefined {
  const zeros = (from: number, to: number) => groups.slice(from, to).every((g) => g === 0);
  const mapped = zeros(0, 5) && groups[5] === 0xffff;
  const compatible = zeros(0, 6) && (groups[6] !== 0 || groups[7]! > 1);
  const nat64 = groups[0] === 0x64 && groups[1] === 0xff9b && zeros(2, 6);
  if (!mapped && !compatible && !nat64) return undefined;
  const [hi, lo] = [groups[6]!, groups[7]!];
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/**
 * True for every address a webhook must never reach: loopback, private, link-local (and so the
 * cloud metadata services), carrier-grade NAT, documentation, multicast and reserved ranges, in
 * IPv4 and IPv6, including IPv4 addresses wrapped in IPv6 (`::ffff:127.0.0.1`, NAT64).
 * Anything that is not an IP address at all is refused too.
 */
export function isBlockedAddress(address: string): boolean {
  const bare = address.replace(/^\[|\]$/g, '');
  const family = isIP(bare.split('%')[0]!);
  if (family === 4) return blocked.check(bare, 'ipv4');
  if (family !== 6) return true;
  const groups = ipv6Groups(bare);
  if (!groups) return true;
  // ::ffff:0:0/96 (SIIT "IPv4-translated", RFC 2765) is no public address whatever it wraps.
  if (groups.slice(0, 4).every((g) => g === 0) && groups[4] === 0xffff && groups[5] === 0) return true;
  const inner = embeddedIpv4(groups);
  if (inner) return blocked.check(inner, 'ipv4');
  const canonical = groups.map((g) => g.toString(16)).join(':');
  return blocked.check(canonical, 'ipv6');
}

/** The host part of a URL as the allow list spells it: lower case, no brackets. */
export const hostOf = (url: URL) => url.hostname.toLowerCase().replace(/^\[|\]$/g, '');

/**
 * A `lookup` for `http.request` that checks every resolved address at connect time, so a name
 * that resolved to a public address at registration and to 10.0.0.5 now (DNS rebinding) is still
 * refused. A name with any blocked address is refused as a whole.
 */
export function guardedLookup(resolver: Resolver): LookupFunction {
  return (hostname, options, callback) => {
    resolver(hostname).then(
      (addresses) => {
        const bad = addresses.find((a) => isBlockedAddress(a.address));
        if (addresses.length === 0 || bad) {
          const error = new UnsafeDestinationError(
            bad
              ? `${hostname} resolves to ${bad.address}, a private or reserved address`
              : `${hostname} has no address`,
          );
          callback(error as NodeJS.ErrnoException, '', 0);
          return;
        }
        if (options.all) callback(null, addresses);
        else callback(null, addresses[0]!.address, addresses[0]!.family);
      },
      (error: NodeJS.ErrnoException) => callback(error, '', 0),
    );
  };
}
