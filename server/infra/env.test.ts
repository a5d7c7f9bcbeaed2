import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './env.ts';

describe('loadConfig', () => {
  it('runs on the embedded defaults with no configuration', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      API_PORT: 8787,
      EMBED_PORT: 8788,
      EXAMPLES_PORT: 8789,
      DATA_DIR: './data',
    });
    expect(config.DATABASE_URL).toBeUndefined();
    expect(config.publicApiUrl).toBe('http://127.0.0.1:8787');
    expect(config.publicEmbedUrl).toBe('http://127.0.0.1:8788');
    expect(config.publicExamplesUrl).toBe('http://localhost:8789');
    expect(config.RATE_LIMIT_SCALE).toBe(1);
    expect(config.TRUST_PROXY).toEqual({ hops: 0 });
  });

  it.each([
    ['API_PORT', 'eighty'],
    ['API_PORT', '70000'],
    ['DATABASE_URL', 'mysql://x'],
    ['REDIS_URL', 'http://127.0.0.1:6379'],
    ['RATE_LIMIT_SCALE', '-1'],
    ['TRUST_PROXY', 'maybe'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['TRUST_PROXY', '10.0.0.0/8, nonsense'],
    ['PUBLIC_API_URL', 'not a url'],
    ['SECRET_KEY', 'short'],
    ['LOG_LEVEL', 'loud'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`^Invalid configuration: ${name} `));
  });

  it('never echoes a secret value', () => {
    expect(() => loadConfig({ SECRET_KEY: 'hunter2' })).toThrow(/^(?!.*hunter2)/);
  });

  it.each([
    ['false', { hops: 0 }],
    ['true', { hops: 1 }],
    ['2', { hops: 2 }],
  ])('reads TRUST_PROXY=%s', (value, expected) => {
    expect(loadConfig({ TRUST_PROXY: value }).TRUST_PROXY).toEqual(expected);
  });

  it('reads TRUST_PROXY as a list of proxy CIDRs', () => {
    const trust = loadConfig({ TRUST_PROXY: '10.0.0.0/8, 2001:db8::/32, 192.0.2.7' }).TRUST_PROXY;
    expect(trust).toMatchObject({ cidrs: ['10.0.0.0/8', '2001:db8::/32', '192.0.2.7'] });
  });

  it('reads lists and flags', () => {
    const config = loadConfig({
      CORS_ORIGINS: 'https://a.example/, https://b.example',
      TRUST_PROXY: '1',
      HOST: '0.0.0.0',
    });
    expect(config.corsOrigins).toEqual(['https://a.example', 'https://b.example']);
    expect(config.TRUST_PROXY).toEqual({ hops: 1 });
    expect(config.publicApiUrl).toBe('http://127.0.0.1:8787');
  });

  it('reads DESTINATION_BASE_URLS per vendor, refuses a bad entry, and refuses it in production', () => {
    const config = loadConfig({
      DESTINATION_BASE_URLS: 'clio-grow=http://127.0.0.1:9001, hubspot=http://[::1]:9002',
    });
    expect(config.DESTINATION_BASE_URLS.bases['clio-grow']?.host).toBe('127.0.0.1:9001');
    expect(config.DESTINATION_BASE_URLS.bases.hubspot?.hostname).toBe('[::1]');
    expect(loadConfig({}).DESTINATION_BASE_URLS.bases).toEqual({});
    for (const bad of [
      'zoho=http://x',
      'hubspot=ftp://x',
      'hubspot=http://x/path',
      'hubspot=http://a,hubspot=http://b',
    ])
      expect(() => loadConfig({ DESTINATION_BASE_URLS: bad })).toThrow(ConfigError);
    expect(() =>
      loadConfig({ NODE_ENV: 'production', DESTINATION_BASE_URLS: 'hubspot=http://127.0.0.1:9' }),
    ).toThrow(/refused with NODE_ENV=production/);
  });
});
