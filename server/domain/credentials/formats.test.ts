import { describe, expect, it } from 'vitest';
import {
  generateApiKey,
  generateLicenseKey,
  generateOpaqueToken,
  hmacSecret,
  isWellFormedApiKey,
  normalizeLicenseKey,
  toBase62,
} from './formats.ts';

describe('license keys', () => {
  it('are SVC- plus six Crockford groups and validate their own check group', () => {
    const key = generateLicenseKey();
    expect(key).toMatch(/^SVC(-[0-9A-HJKMNP-TV-Z]{5}){6}$/);
    expect(normalizeLicenseKey(key)).toBe(key);
    expect(normalizeLicenseKey(key.toLowerCase().replaceAll('-', ' '))).toBe(key);
  });

  it('catch a mistyped character', () => {
    const key = generateLicenseKey();
    const i = 6;
    const swapped = key.slice(0, i) + (key[i] === '7' ? '8' : '7') + key.slice(i + 1);
    expect(normalizeLicenseKey(swapped)).toBeNull();
    expect(normalizeLicenseKey('SVC-nope')).toBeNull();
    expect(normalizeLicenseKey('')).toBeNull();
  });

  it('are unique', () => {
    expect(new Set(Array.from({ length: 200 }, generateLicenseKey)).size).toBe(200);
  });
});

describe('API keys', () => {
  it('are svc_pat_ + base62 + checksum', () => {
    const key = generateApiKey();
    expect(key).toMatch(/^svc_pat_[0-9A-Za-z]{49}$/);
    expect(isWellFormedApiKey(key)).toBe(true);
    expect(isWellFormedApiKey(`${key.slice(0, -1)}${key.endsWith('0') ? '1' : '0'}`)).toBe(false);
    expect(isWellFormedApiKey('svc_pat_short')).toBe(false);
  });
});

describe('helpers', () => {
  it('base62 keeps a fixed width', () => {
    expect(toBase62(new Uint8Array(32))).toHaveLength(43);
    expect(toBase62(new Uint8Array(32).fill(255))).toHaveLength(43);
  });

  it('opaque tokens carry their prefix', () => {
    expect(generateOpaqueToken('svc_rt_')).toMatch(/^svc_rt_[0-9A-Za-z]{43}$/);
  });

  it('hmac depends on the pepper', () => {
    expect(hmacSecret(Buffer.from('a'), 'x')).not.toBe(hmacSecret(Buffer.from('b'), 'x'));
    expect(hmacSecret(Buffer.from('a'), 'x')).toMatch(/^[0-9a-f]{64}$/);
  });
});
