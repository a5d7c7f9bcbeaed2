import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/database.ts';
import { createTestDatabase } from '../test-support/db.ts';
import { decrypt, encrypt } from './encryption.ts';
import { loadSecretKey } from './secret-key.ts';
import { createSecretStore } from './secret-store.ts';

describe('encryption at rest', () => {
  const key = randomBytes(32);
  it('round-trips and refuses tampering or another key', () => {
    const sealed = encrypt(key, 'pepper: Zoë');
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('pepper');
    expect(decrypt(key, sealed)).toBe('pepper: Zoë');
    const parts = sealed.split('.');
    const body = Buffer.from(parts[3]!, 'base64url');
    body[0] = body[0]! ^ 1;
    expect(() => decrypt(key, [...parts.slice(0, 3), body.toString('base64url')].join('.'))).toThrow();
    expect(() => decrypt(randomBytes(32), sealed)).toThrow();
    expect(() => decrypt(key, 'garbage')).toThrow();
  });
});

describe('loadSecretKey', () => {
  it('creates a 0600 key file once and reads it back; SECRET_KEY wins', () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-key-'));
    const first = loadSecretKey({ dataDir: dir });
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretKey({ dataDir: dir })).toEqual(first);
    const fromEnv = loadSecretKey({ dataDir: dir, secretKey: 'x'.repeat(40) });
    expect(fromEnv).toHaveLength(32);
    expect(fromEnv).not.toEqual(first);
    expect(loadSecretKey({ dataDir: dir, secretKey: 'ab'.repeat(32) })).toEqual(
      Buffer.from('ab'.repeat(32), 'hex'),
    );
  });
});

describe('secret store', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('gives every concurrent caller the same value, stored encrypted', async () => {
    const key = randomBytes(32);
    const store = createSecretStore(database.db, key);
    let made = 0;
    const values = await Promise.all(
      Array.from({ length: 5 }, () =>
        createSecretStore(database.db, key).getOrCreate('race', () => `value-${++made}`),
      ),
    );
    expect(new Set(values).size).toBe(1);
    expect(await store.getOrCreate('race', () => 'other')).toBe(values[0]);
  });
});
