import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { generateLicenseKey, hmacSecret } from '../../domain/credentials/formats.ts';
import type { LicensingDeps } from '../../domain/deps.ts';
import { ensurePublishableKeys, licenseKeysView } from '../../domain/licensing/keys.ts';
import { findUsableLicenseBySecretKey } from '../../domain/licensing/lookup.ts';
import { createFixedClock } from '../../lib/clock.ts';
import { createDatabase } from './database.ts';
import { migrate, migrationFiles } from './migrate.ts';

describe('migration 0003 (two keys per license)', () => {
  it('keeps a license made before it working: secret key copied, legacy embed allowed, publishable key added at start-up', async () => {
    const database = await createDatabase({ dataDir: 'memory://' });
    try {
      const client = (database.db as unknown as { $client: PGlite }).$client;
      // The schema as it was before 0003, with one license in it.
      await client.exec(
        'create table schema_migrations (name text primary key, applied_at timestamptz not null)',
      );
      for (const file of migrationFiles().filter((f) => f.name < '0003')) {
        await client.exec(file.sql);
        await client.query('insert into schema_migrations values ($1, now())', [file.name]);
      }
      const pepper = Buffer.alloc(32, 7);
      const key = generateLicenseKey();
      await database.db.execute(
        sql`insert into accounts (id, name, created_at) values ('acct_old', 'Old LLP', now())`,
      );
      await database.db.execute(
        sql`insert into licenses (id, account_id, key_hmac, key_last4, plan, seats, allowed_domains, paid_through, created_at, updated_at)
            values ('lic_old', 'acct_old', ${hmacSecret(pepper, key)}, ${key.slice(-4)}, 'pro', 1, '["old.example"]', '2027-01-01', now(), now())`,
      );
      expect(await migrate(database)).toContain('0003_trust_model.sql');

      const clock = createFixedClock('2026-03-01T12:00:00Z');
      const deps = { db: database.db, clock, pepper, tokens: undefined as never } as LicensingDeps;
      const found = await findUsableLicenseBySecretKey(deps, key);
      const rows = (await database.db.execute(
        sql`select kind, license_keys.key_hmac, legacy_secret_embed from license_keys join licenses on licenses.id = license_keys.license_id`,
      )) as unknown as { rows: { kind: string; key_hmac: string; legacy_secret_embed: boolean }[] };
      expect(rows.rows).toEqual([
        { kind: 'secret', key_hmac: hmacSecret(pepper, key), legacy_secret_embed: true },
      ]);
      expect(found.license).toMatchObject({ id: 'lic_old', legacySecretEmbed: true });

      expect(await ensurePublishableKeys(deps)).toBe(1);
      const view = await licenseKeysView(database.db, 'lic_old', clock.now());
      expect(view.publishableKey).toMatch(/^svc_pk_/);
    } finally {
      await database.close();
    }
  }, 60_000);
});
