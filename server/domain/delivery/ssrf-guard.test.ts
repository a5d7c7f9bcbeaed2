import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReceiver } from '../../test-support/webhook-receiver.ts';
import { checkEndpointUrl } from './endpoints.ts';
import { DESTINATION_NOT_ALLOWED, postJson, RESPONSE_EXCERPT_BYTES } from './http-sender.ts';
import { isBlockedAddress, type Resolver } from './ssrf-guard.ts';

describe('isBlockedAddress', () => {
  it.each([
    '127.0.0.1',
    '127.1.2.3',
    '10.0.0.5',
    '172.16.0.1',
    '172.31.255.255',
    '192.168.1.1',
    '169.254.169.254',
    '100.64.0.1',
    '0.0.0.0',
    '224.0.0.1',
    '255.255.255.255',
    '::1',
    '::',
    'fe80::1',
    'fe80::1%eth0',
    'fc00::1',
    'fd00:ec2::254',
    '::ffff:127.0.0.1',
    '::ffff:7f00:1',
    '::ffff:169.254.169.254',
    '::ffff:a00:5',
    '::ffff:0:7f00:1', // SIIT "IPv4-translated" (::ffff:0:0/96) around 127.0.0.1
    '::ffff:0:808:808', // ... and around a public address: the whole range is special-purpose
    '64:ff9b::a00:5',
    '::127.0.0.1',
    '2002:7f00:1::',
    'ff02::1',
    'not-an-ip',
  ])('refuses %s', (address) => {
    expect(isBlockedAddress(address)).toBe(true);
  });

  it.each([
    '93.184.216.34',
    '8.8.8.8',
    '172.32.0.1',
    '2606:4700::1111',
    '::ffff:8.8.8.8',
    '64:ff9b::808:808',
  ])('allows %s', (address) => {
    expect(isBlockedAddress(address)).toBe(false);
  });
});

describe('checkEndpointUrl (registration)', () => {
  it.each([
    ['http://hooks.example.com/x', 'plain http to a public host'],
    ['https://10.0.0.5/x', 'a private IP literal'],
    ['https://[::ffff:127.0.0.1]/x', 'a mapped loopback literal'],
    ['https://[::ffff:0:7f00:1]/x', 'a translated loopback literal'],
    ['https://user:pw@hooks.example.com/x', 'credentials in the URL'],
    ['hooks.example.com', 'not a URL'],
    ['ftp://hooks.example.com', 'another scheme'],
  ])('refuses %s (%s)', (url) => {
    expect(() => checkEndpointUrl(url, [])).toThrow(expect.objectContaining({ code: 'INVALID_REQUEST' }));
  });

  it('accepts https, and http or a development host only when the operator allowed the host', () => {
    expect(checkEndpointUrl('https://hooks.zapier.com/hooks/catch/1/a#frag', [])).toBe(
      'https://hooks.zapier.com/hooks/catch/1/a',
    );
    expect(() => checkEndpointUrl('http://crm.localhost:3000/in', [])).toThrow(/WEBHOOK_ALLOW_PRIVATE_HOSTS/);
    expect(checkEndpointUrl('http://crm.localhost:3000/in', ['crm.localhost'])).toBe(
      'http://crm.localhost:3000/in',
    );
    expect(checkEndpointUrl('http://127.0.0.1:9/in', ['127.0.0.1'])).toBe('http://127.0.0.1:9/in');
  });
});

describe('postJson at connect time', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  beforeAll(async () => {
    receiver = await startReceiver((req, _n, res) => {
      if (req.body === '"redirect"') {
        res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/' }).end();
        return 302;
      }
      if (req.body === '"big"') {
        res.writeHead(200).end('x'.repeat(100_000));
        return 200;
      }
      if (req.body === '"slow"') return 'hang';
      return 200;
    });
  });
  afterAll(() => receiver.close());

  // A name that looks public but resolves (now) to the receiver on loopback: DNS rebinding.
  const rebinding: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
  const viaName = () => receiver.url.replace('127.0.0.1', 'hooks.attacker.example');
  const opts = { timeoutMs: 2_000, resolver: rebinding, allowPrivateHosts: [] as string[] };

  it('refuses a DNS name that resolves to a private address, before any byte is sent', async () => {
    const before = receiver.requests.length;
    const warned: unknown[] = [];
    const logger = { warn: (detail: unknown) => warned.push(detail) };
    const outcome = await postJson(viaName(), '"x"', {}, { ...opts, logger });
    expect(outcome.statusCode).toBeNull();
    // The firm's delivery log names no address (no DNS oracle); the server log keeps the detail.
    expect(outcome.error).toBe(DESTINATION_NOT_ALLOWED);
    expect(JSON.stringify(warned)).toContain('127.0.0.1');
    expect(receiver.requests.length).toBe(before);
  });

  it('says the same for a name that does not resolve and for a private literal', async () => {
    const nowhere: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo ENOTFOUND vm'), { code: 'ENOTFOUND' });
    };
    const unresolved = await postJson(viaName(), '"x"', {}, { ...opts, resolver: nowhere });
    expect(unresolved.error).toBe(DESTINATION_NOT_ALLOWED);
    const literal = await postJson('https://[::ffff:0:7f00:1]:9/x', '"x"', {}, opts);
    expect(literal.error).toBe(DESTINATION_NOT_ALLOWED);
    // Both end the same way (no retry can succeed); a resolver that is only unavailable is retried.
    expect([unresolved.permanent, literal.permanent]).toEqual([true, true]);
    const flaky: Resolver = async () => {
      throw Object.assign(new Error('getaddrinfo EAI_AGAIN vm'), { code: 'EAI_AGAIN' });
    };
    expect((await postJson(viaName(), '"x"', {}, { ...opts, resolver: flaky })).permanent).toBeUndefined();
  });

  it('refuses when any of several addresses is private', async () => {
    const mixed: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: 'fd00::1', family: 6 },
    ];
    const outcome = await postJson(viaName(), '"x"', {}, { ...opts, resolver: mixed });
    expect(outcome.error).toMatch(/refused/);
  });

  it('refuses a private IP literal unless the host is allowed', async () => {
    expect((await postJson(receiver.url, '"x"', {}, opts)).error).toMatch(/refused/);
    const allowed = await postJson(receiver.url, '"x"', {}, { ...opts, allowPrivateHosts: ['127.0.0.1'] });
    expect(allowed.statusCode).toBe(200);
  });

  it('does not follow redirects', async () => {
    const outcome = await postJson(
      receiver.url,
      '"redirect"',
      {},
      { ...opts, allowPrivateHosts: ['127.0.0.1'] },
    );
    expect(outcome.statusCode).toBe(302);
  });

  it('reads at most the excerpt cap of a response', async () => {
    const outcome = await postJson(receiver.url, '"big"', {}, { ...opts, allowPrivateHosts: ['127.0.0.1'] });
    expect(outcome.statusCode).toBe(200);
    expect(outcome.excerpt.length).toBe(RESPONSE_EXCERPT_BYTES);
  });

  it('gives up after the timeout', async () => {
    const outcome = await postJson(
      receiver.url,
      '"slow"',
      {},
      {
        ...opts,
        timeoutMs: 300,
        allowPrivateHosts: ['127.0.0.1'],
      },
    );
    expect(outcome.statusCode).toBeNull();
    expect(outcome.error).toMatch(/timed out/);
  });
});
