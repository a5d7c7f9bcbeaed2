import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase, createTestDatabase, resetDatabase } from '../../test-support/db.ts';
import { needs } from '../../test-support/needs.ts';
import type { Database } from '../engine/database.ts';
import { newId } from '../engine/ids.ts';
import { migrate } from '../engine/migrate.ts';
import { isUniqueViolation } from '../engine/pg-errors.ts';
import { activations } from '../engine/schema.ts';
import { countAccounts, findAccountById, insertAccount } from './accounts-repo.ts';
import {
  findApiKeyByHmac,
  insertApiKey,
  listApiKeysByAccount,
  revokeApiKey,
  touchApiKey,
} from './api-keys-repo.ts';
import {
  findLicenseById,
  findLicenseByKeyHmac,
  insertLicense,
  listLicensesByAccount,
  revokeLicense,
} from './licenses-repo.ts';
import { findResult, insertResult, storeResult } from './results-repo.ts';
import { insertSigningKey, listSigningKeys, updateSigningKeyStatus } from './signing-keys-repo.ts';

const T0 = new Date('2026-03-01T12:00:00.123Z');
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/** The same repository checks against PGlite and PostgreSQL: one code path must suit both. */
function repositorySuite(open: () => Promise<{ database: Database; done(): Promise<void> }>) {
  let database: Database;
  let done: () => Promise<void>;
  beforeAll(async () => {
    ({ database, done } = await open());
  });
  afterAll(() => done());
  beforeEach(() => resetDatabase(database));

  const account = (name: string) =>
    insertAccount(database.db, { id: newId('acct'), name, email: `${name}@example.test`, createdAt: T0 });
  const license = (accountId: string, keyHmac = newId('h')) =>
    insertLicense(database.db, {
      id: newId('lic'),
      accountId,
      keyHmac,
      keyLast4: 'AB12',
      plan: 'pro',
      seats: 3,
      allowedDomains: ['example.com', '*.example.org'],
      trialEndsAt: later(60),
      createdAt: T0,
      updatedAt: T0,
    });

  it('accounts: insert, find by id, count', async () => {
    const firm = await account('Zoë & Søn');
    expect(await findAccountById(database.db, firm.id)).toEqual(firm);
    expect(firm).toMatchObject({ name: 'Zoë & Søn', stripeCustomerId: null, createdAt: T0 });
    expect(await findAccountById(database.db, newId('acct'))).toBeUndefined();
    expect(await countAccounts(database.db)).toBe(1);
  });

  it('licenses: JSON and times round-trip; lists are scoped to the account; revoke keeps the first time', async () => {
    const [firm, other] = [await account('a'), await account('b')];
    const lic = await license(firm.id, 'hmac-1');
    await license(other.id);
    expect(await findLicenseByKeyHmac(database.db, 'hmac-1')).toEqual(lic);
    expect(await findLicenseById(database.db, lic.id)).toMatchObject({
      allowedDomains: ['example.com', '*.example.org'],
      trialEndsAt: later(60),
      paidThrough: null,
      revokedAt: null,
    });
    expect((await listLicensesByAccount(database.db, firm.id)).map((l) => l.id)).toEqual([lic.id]);
    await revokeLicense(database.db, lic.id, later(5));
    await revokeLicense(database.db, lic.id, later(9));
    expect(await findLicenseById(database.db, lic.id)).toMatchObject({
      revokedAt: later(5),
      updatedAt: later(5),
    });
  });

  it('licenses: a second key with the same HMAC is refused as a unique violation', async () => {
    const firm = await account('a');
    await license(firm.id, 'same');
    const error = await license(firm.id, 'same').catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('activations: one live row per license and domain; a released one frees the domain', async () => {
    const lic = await license((await account('a')).id);
    const row = (id: string, releasedAt: Date | null = null) => ({
      id,
      licenseId: lic.id,
      domain: 'example.com',
      env: 'prod' as const,
      firstSeenAt: T0,
      lastSeenAt: T0,
      releasedAt,
    });
    await database.db.insert(activations).values(row(newId('act'), T0));
    await database.db.insert(activations).values(row(newId('act')));
    const error = await database.db
      .insert(activations)
      .values(row(newId('act')))
      .catch((e: unknown) => e);
    expect(isUniqueViolation(error)).toBe(true);
  });

  it('api keys: found by HMAC, listed and revoked only within their account, last use recorded', async () => {
    const [firm, other] = [await account('a'), await account('b')];
    const key = await insertApiKey(database.db, {
      id: newId('key'),
      accountId: firm.id,
      name: 'CRM sync',
      keyHmac: 'key-hmac',
      keyLast4: 'wxyz',
      scopes: 'leads:read',
      createdAt: T0,
    });
    expect(await findApiKeyByHmac(database.db, 'key-hmac')).toEqual(key);
    expect(await listApiKeysByAccount(database.db, other.id)).toEqual([]);
    expect(await revokeApiKey(database.db, other.id, key.id, later(1))).toBe(false);
    await touchApiKey(database.db, key.id, later(2));
    expect(await revokeApiKey(database.db, firm.id, key.id, later(3))).toBe(true);
    expect(await revokeApiKey(database.db, firm.id, key.id, later(4))).toBe(false);
    expect(await listApiKeysByAccount(database.db, firm.id)).toEqual([
      { ...key, lastUsedAt: later(2), revokedAt: later(3) },
    ]);
  });

  it('signing keys: listed oldest first; activation and retirement are stamped', async () => {
    const key = (kid: string, createdAt: Date) => ({
      kid,
      alg: 'EdDSA',
      publicJwk: { kty: 'OKP', crv: 'Ed25519', x: kid },
      privateKeyEnc: 'v1.sealed',
      status: 'next' as const,
      createdAt,
    });
    await insertSigningKey(database.db, key('k2', later(10)));
    await insertSigningKey(database.db, key('k1', T0));
    await updateSigningKeyStatus(database.db, 'k1', 'active', later(20));
    await updateSigningKeyStatus(database.db, 'k2', 'retired', later(30), later(900));
    expect(await listSigningKeys(database.db)).toEqual([
      { ...key('k1', T0), status: 'active', activatedAt: later(20), retireAfter: null },
      { ...key('k2', later(10)), status: 'retired', activatedAt: null, retireAfter: later(900) },
    ]);
  });

  it('results: stored together in one statement, each read back exactly as written', async () => {
    const firm = await account('results');
    const row = (i: number) => ({
      id: newId('res'),
      accountId: firm.id,
      calculator: 'estate-tax',
      ...(i % 2 ? { state: 'NY', licenseId: newId('lic'), originDomain: 'firm.example' } : {}),
      inputs: { estateValue: 8_000_000.25 + i, note: `Zoë "quoted" ${i} \\ ' ;--` },
      outputs: { totalTax: 0.1 + 0.2, nested: { list: [1, null, true] } },
      lineItems: [{ label: 'Total', amount: -1234.56, kind: 'total' }],
      notes: i % 3 ? [] : ['one', 'two'],
      ruleSet: { year: 2026 },
      disclaimer: 'Estimate only.',
      createdAt: later(i),
      test: i % 4 === 0,
      ...(i % 5 ? {} : { embedSessionId: newId('es') }),
    });
    const rows = Array.from({ length: 40 }, (_, i) => row(i));
    // All at once: they share statements; every caller gets its own row back once committed.
    const stored = await Promise.all(rows.map((r) => storeResult(database.db, r)));
    for (const [i, r] of stored.entries()) {
      expect(await findResult(database.db, firm.id, r.id)).toEqual(r);
      expect(r).toMatchObject({ ...rows[i], state: rows[i]!.state ?? null });
    }
    // One row that cannot be stored (no such account) fails alone; the rest of its batch is kept.
    const orphan = { ...row(99), accountId: newId('acct') };
    const outcomes = await Promise.allSettled(
      [row(100), orphan, row(101)].map((r) => storeResult(database.db, r)),
    );
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await findResult(database.db, orphan.accountId, orphan.id)).toBeUndefined();
    // Single inserts (inside transactions) write the same row.
    const single = await insertResult(database.db, row(7));
    expect(await findResult(database.db, firm.id, single.id)).toEqual(single);
  });

  it('resetDatabase empties the tables and keeps the migration log', async () => {
    await account('a');
    await resetDatabase(database);
    expect(await countAccounts(database.db)).toBe(0);
    expect(await migrate(database)).toEqual([]);
  });
}

describe('repositories on PGlite', () => {
  repositorySuite(async () => {
    const database = await createTestDatabase();
    return { database, done: () => database.close() };
  });
});

needs('postgres').describe('repositories on PostgreSQL (PostgreSQL)', () => {
  repositorySuite(async () => {
    const { database, drop } = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    return { database, done: drop };
  });
});
