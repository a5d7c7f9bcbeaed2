import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { clientIp, ipRateKey, networkOf, parseTrustProxy } from './client-ip.ts';

/** app.request() has no socket: the nearest forwarded entry stands where the peer would be. */
async function ipFor(trust: string, forwardedFor?: string): Promise<string> {
  const app = new Hono();
  app.get('/', (c) => c.text(clientIp(c, parseTrustProxy(trust))));
  const res = await app.request('/', forwardedFor ? { headers: { 'x-forwarded-for': forwardedFor } } : {});
  return res.text();
}

describe('client IP', () => {
  it.each([
    ['false', '198.51.100.1, 203.0.113.9', 'unknown'],
    ['true', '198.51.100.1, 203.0.113.9', '203.0.113.9'],
    ['1', '198.51.100.1, 203.0.113.9', '203.0.113.9'],
    // Behind a CDN and a load balancer the last entry is the CDN, not the client.
    ['2', '198.51.100.1, 203.0.113.9, 192.0.2.50', '203.0.113.9'],
    ['2', 'forged, 203.0.113.9, 192.0.2.50', '203.0.113.9'],
    // Trusted proxy networks: the nearest address outside them is the client; spoofed entries
    // further left never count.
    ['10.0.0.0/8, 192.0.2.0/24', '6.6.6.6, 203.0.113.9, 192.0.2.50, 10.1.2.3', '203.0.113.9'],
    ['10.0.0.0/8', '::ffff:203.0.113.9, 10.1.2.3', '203.0.113.9'],
    ['2001:db8::/32', '2001:db9::1, 2001:db8::7', '2001:db9::1'],
  ])('TRUST_PROXY=%s, X-Forwarded-For %s → %s', async (trust, xff, expected) => {
    expect(await ipFor(trust, xff)).toBe(expected);
  });

  it('keys IPv6 by its /64 and IPv4 by the address', () => {
    expect(ipRateKey('2001:db8:1:2:aaaa::1')).toBe('2001:db8:1:2::/64');
    expect(ipRateKey('2001:db8:1:2:ffff:ffff:ffff:fffe')).toBe('2001:db8:1:2::/64');
    expect(ipRateKey('2001:db8::1')).toBe('2001:db8:0:0::/64');
    expect(ipRateKey('::1')).toBe('0:0:0:0::/64');
    expect(ipRateKey('203.0.113.9')).toBe('203.0.113.9');
  });

  it.each(['maybe', '10.0.0.0/33', '10.0.0.0/8, nonsense', '300.1.1.1'])(
    'refuses TRUST_PROXY=%s',
    (value) => {
      expect(() => parseTrustProxy(value)).toThrow(/CIDR/);
    },
  );
});

describe('networkOf (the unit spam signals count leads by)', () => {
  it('is the /24 of a public IPv4 address, mapped or not, and the /64 of a public IPv6 one', () => {
    expect(networkOf('203.0.7.9')).toBe('203.0.7.0/24');
    expect(networkOf('::ffff:203.0.7.9')).toBe('203.0.7.0/24');
    expect(networkOf('2a00:1450:4001:81c::200e')).toBe(ipRateKey('2a00:1450:4001:81c::1'));
  });

  it.each([
    '127.0.0.1',
    '::ffff:127.0.0.1',
    '::1',
    '10.1.2.3',
    '172.20.0.5',
    '192.168.1.50',
    '100.64.3.4',
    '169.254.169.254',
    'fd12:3456::1',
    'fe80::1',
  ])('is null for %s: a proxy TRUST_PROXY does not name, or this machine, tells no visitor apart', (ip) => {
    expect(networkOf(ip)).toBeNull();
  });

  it('is null for what is not an address', () => {
    expect(networkOf(undefined)).toBeNull();
    expect(networkOf('unknown')).toBeNull();
  });
});
