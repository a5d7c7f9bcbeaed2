import { randomBytes } from 'node:crypto';
import { mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDatabase, type Database, type Db } from '../db/engine/database.ts';
import { secrets } from '../db/engine/schema.ts';
import { createPostgresTestDatabase, createTestDatabase } from '../test-support/db.ts';
import { needs } from '../test-support/needs.ts';
import { decrypt, encrypt } from './encryption.ts';
import { loadSecretKey } from './secret-key.ts';
import { createSecretStore } from './secret-store.ts';

describe('encryption at rest', () => {
  const key = randomBytes(32);
  const sealed = encrypt(key, 'pepper: Zoë');

  it('round-trips, with a fresh nonce each time and no plaintext in the output', () => {
    expect(sealed).toMatch(/^v1\./);
    expect(sealed).not.toContain('pepper');
    expect(decrypt(key, sealed)).toBe('pepper: Zoë');
    expect(encrypt(key, 'pepper: Zoë')).not.toBe(sealed);
  });

  it.each([
    ['nonce', 1],
    ['tag', 2],
    ['ciphertext', 3],
  ])('refuses a text whose %s was altered', (_part, index) => {
    const parts = sealed.split('.');
    const bytes = Buffer.from(parts[index]!, 'base64url');
    bytes[0] = bytes[0]! ^ 1;
    parts[index] = bytes.toString('base64url');
    expect(() => decrypt(key, parts.join('.'))).toThrow();
  });

  it.each([
    ['another key', randomBytes(32), sealed],
    ['another version', key, sealed.replace(/^v1/, 'v2')],
    ['garbage', key, 'garbage'],
  ])('refuses %s', (_case, withKey, text) => {
    expect(() => decrypt(withKey, text)).toThrow();
  });
});

describe('loadSecretKey', () => {
  const tempDir = () => mkdtempSync(join(tmpdir(), 'svc-key-'));

  it('creates a 0600 key file once and reads it back', () => {
    const dir = tempDir();
    const first = loadSecretKey({ dataDir: dir });
    expect(first).toHaveLength(32);
    expect(statSync(join(dir, 'secret.key')).mode & 0o777).toBe(0o600);
    expect(loadSecretKey({ dataDir: dir })).toEqual(first);
  });

  it('refuses a key file that does not hold a key, rather than encrypting with a short one', () => {
    const dir = tempDir();
    writeFileSync(join(dir, 'secret.key'), 'abcd\n');
    expect(() => loadSecretKey({ dataDir: dir })).toThrow(/secret\.key/);
  });

  const raw = randomBytes(32);
  it.each([
    ['hex', raw.toString('hex')],
    ['base64', raw.toString('base64')],
    ['base64url', raw.toString('base64url')],
  ])('uses a SECRET_KEY of 32 bytes in %s as is, ignoring the key file', (_format, text) => {
    const dir = tempDir();
    loadSecretKey({ dataDir: dir });
    expect(loadSecretKey({ dataDir: dir, secretKey: text })).toEqual(raw);
  });

  it('stretches a passphrase the same way every time and refuses a short one', () => {
    const dir = tempDir();
    const passphrase = 'correct horse battery staple, estate';
    const key = loadSecretKey({ dataDir: dir, secretKey: passphrase });
    expect(key).toHaveLength(32);
    expect(loadSecretKey({ dataDir: tempDir(), secretKey: passphrase })).toEqual(key);
    expect(loadSecretKey({ dataDir: dir, secretKey: `${passphrase}!` })).not.toEqual(key);
    expect(() => loadSecretKey({ dataDir: dir, secretKey: 'x'.repeat(31) })).toThrow(/SECRET_KEY/);
  });
});

/** Several instances (stores over `dbs`) ask for the same secrets at once; all must agree. */
async function expectOneWinner(dbs: Db[]): Promise<void> {
  const key = randomBytes(32);
  let made = 0;
  for (const name of ['pepper', 'other']) {
    const values = await Promise.all(
      [...dbs, ...dbs].map((db) => createSecretStore(db, key).getOrCreate(name, () => `value-${++made}`)),
    );
    expect(new Set(values).size).toBe(1);
    expect(await createSecretStore(dbs[0]!, key).getOrCreate(name, () => 'late')).toBe(values[0]);
    const [row] = await dbs[0]!.select().from(secrets).where(eq(secrets.name, name));
    expect(row!.valueEnc).not.toContain(values[0]);
    expect(decrypt(key, row!.valueEnc)).toBe(values[0]);
  }
}

describe('secret store', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('gives every concurrent caller the same value, stored encrypted', async () => {
    await expectOneWinner([database.db]);
  });
});

needs('postgres').describe('secret store across instances (PostgreSQL)', () => {
  it('gives instances that start together the same value', async () => {
    const { url, drop } = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    const instances = await Promise.all([1, 2, 3].map(() => createDatabase({ databaseUrl: url })));
    try {
      await expectOneWinner(instances.map((i) => i.db));
    } finally {
      await Promise.all(instances.map((i) => i.close()));
      await drop();
    }
  });
});
