import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { migrationsDir, splitStatements } from '../../db/engine/migrate.ts';
import { consentVersions } from '../../db/engine/schema.ts';
import { insertAccount } from '../../db/repos/accounts-repo.ts';
import { createFixedClock } from '../../lib/clock.ts';
import { createTestDatabase } from '../../test-support/db.ts';
import {
  DEFAULT_CONSENT_TEXT,
  ensureCurrentConsent,
  listConsentVersions,
  renamedDefaultConsent,
} from './consent.ts';

const OLD_DEFAULT =
  'I agree that {firm} may contact me about my enquiry and store the details I entered for that purpose.';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

let database: Database;
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());

async function firmWithConsent(name: string, text: string | undefined) {
  const account = await insertAccount(database.db, { id: newId('acct'), name, createdAt: new Date() });
  if (text !== undefined)
    await database.db.insert(consentVersions).values({
      id: newId('cv'),
      accountId: account.id,
      version: 1,
      text,
      textSha256: sha256(text),
      createdAt: new Date('2026-01-01T00:00:00Z'),
    });
  return account.id;
}

describe('migration 0009: a default consent that names e-mail and phone', () => {
  it('publishes it for firms still on the old default, and leaves firms with their own text alone', async () => {
    const plain = await firmWithConsent('Smith & Søn', OLD_DEFAULT.replace('{firm}', 'Smith & Søn'));
    const own = await firmWithConsent('Own Words LLP', 'Own Words LLP may write to me.');
    const none = await firmWithConsent('Not Yet LLP', undefined);
    // The file is safe to apply again (what a fresh database did at start-up, done here on our rows).
    const file = readFileSync(join(migrationsDir(), '0009_consent_source.sql'), 'utf8');
    for (const statement of splitStatements(file)) await database.db.execute(sql.raw(statement));
    for (const statement of splitStatements(file)) await database.db.execute(sql.raw(statement));

    const [latest, first] = await listConsentVersions(database.db, plain);
    const expected = DEFAULT_CONSENT_TEXT.replace('{firm}', 'Smith & Søn');
    expect(first?.version).toBe(1);
    expect(latest).toMatchObject({ version: 2, text: expected, textSha256: sha256(expected) });
    expect(latest?.id).toMatch(/^cv_[0-9a-z]{26}$/);
    expect(expected).toMatch(/e-mail or by phone/);
    expect((await listConsentVersions(database.db, own)).map((v) => v.text)).toEqual([
      'Own Words LLP may write to me.',
    ]);
    expect(await listConsentVersions(database.db, none)).toEqual([]);
    // A firm with no version yet gets the new default on first use.
    const clock = createFixedClock('2026-03-01T12:00:00Z');
    expect((await ensureCurrentConsent({ db: database.db, clock }, none, 'Not Yet LLP')).text).toBe(
      DEFAULT_CONSENT_TEXT.replace('{firm}', 'Not Yet LLP'),
    );
  });
});

describe('renaming a firm', () => {
  it('republishes the default consent with the new name, and leaves a firm’s own text alone', async () => {
    const plain = await firmWithConsent('Old & Co', DEFAULT_CONSENT_TEXT.replace('{firm}', 'Old & Co'));
    const own = await firmWithConsent('Own & Co', 'Own & Co may call me.');
    expect(await renamedDefaultConsent(database.db, plain, 'Old & Co', 'New & Co')).toBe(
      DEFAULT_CONSENT_TEXT.replace('{firm}', 'New & Co'),
    );
    expect(await renamedDefaultConsent(database.db, own, 'Own & Co', 'Other & Co')).toBeUndefined();
  });
});
