import { describe, expect, it } from 'vitest';
import { canonicalHost, isDevHost, isDomainAllowed, parseDomainPattern } from './domains.ts';

describe('canonicalHost', () => {
  it.each([
    ['example.com', 'example.com'],
    ['Example.COM', 'example.com'],
    ['https://www.example.com/some/path?q=1', 'example.com'],
    ['www.example.com', 'example.com'],
    ['example.com.', 'example.com'],
    ['example.com:8443', 'example.com'],
    ['http://shop.example.com:8080/', 'shop.example.com'],
    ['bücher.example', 'xn--bcher-kva.example'],
    ['https://BÜCHER.de', 'xn--bcher-kva.de'],
    ['localhost:5173', 'localhost'],
    ['127.0.0.1:8789', '127.0.0.1'],
    ['[::1]:3000', '[::1]'],
    ['http://0x7f.1/', '127.0.0.1'],
    ['www', 'www'],
    ['', null],
    ['   ', null],
    ['exa mple.com', null],
    ['http://', null],
    ['a..b.com', null],
  ])('%j → %j', (input, expected) => {
    expect(canonicalHost(input)).toBe(expected);
  });
});

describe('parseDomainPattern', () => {
  it.each([
    ['example.com', { kind: 'exact', host: 'example.com' }],
    ['www.example.com', { kind: 'exact', host: 'example.com' }],
    ['*.example.com', { kind: 'wildcard', suffix: 'example.com' }],
    ['*.example.co.uk', { kind: 'wildcard', suffix: 'example.co.uk' }],
    ['203.0.113.10', { kind: 'exact', host: '203.0.113.10' }],
  ])('%s is accepted', (entry, expected) => {
    expect(parseDomainPattern(entry)).toEqual(expected);
  });

  it.each(['*.com', '*.co.uk', '*.github.io', 'com', 'co.uk', '*.', '*.1.2.3.4', 'not a domain'])(
    '%s is refused',
    (entry) => {
      expect(parseDomainPattern(entry)).toHaveProperty('error');
    },
  );
});

describe('isDomainAllowed', () => {
  const allowed = ['example.com', '*.firm.example', 'xn--bcher-kva.example', '*.com'];
  it.each([
    ['example.com', true],
    ['shop.example.com', false],
    ['firm.example', false],
    ['a.firm.example', true],
    ['a.b.firm.example', true],
    ['evilfirm.example', false],
    ['xn--bcher-kva.example', true],
    ['anything.com', false],
  ])('%s → %s', (host, expected) => {
    expect(isDomainAllowed(host, allowed)).toBe(expected);
  });
});

describe('isDevHost', () => {
  it.each([
    ['localhost', true],
    ['app.localhost', true],
    ['firm.test', true],
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['10.1.2.3', true],
    ['172.16.0.1', true],
    ['172.31.255.255', true],
    ['172.32.0.1', false],
    ['192.168.1.20', true],
    ['[::1]', true],
    ['[fd00::1]', true],
    ['[2001:db8::1]', false],
    ['8.8.8.8', false],
    ['example.com', false],
    ['localhost.example.com', false],
    ['test', false],
  ])('%s → %s', (host, expected) => {
    expect(isDevHost(host)).toBe(expected);
  });
});
