import type { PGlite } from '@electric-sql/pglite';
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { createDatabase } from './database.ts';
import { migrate, migrationFiles } from './migrate.ts';

describe('migrations 0016–0017 (a grant is active once its code was exchanged)', () => {
  it('activates the grants that got a token before them and leaves the never-exchanged ones pending', async () => {
    const database = await createDatabase({ dataDir: 'memory://' });
    try {
      const client = (database.db as unknown as { $client: PGlite }).$client;
      await client.exec(
        'create table schema_migrations (name text primary key, applied_at timestamptz not null)',
      );
      for (const file of migrationFiles().filter((f) => f.name < '0016')) {
        await client.exec(file.sql);
        await client.query('insert into schema_migrations values ($1, now())', [file.name]);
      }
      await database.db.execute(
        sql`insert into accounts (id, name, created_at) values ('acct_a', 'A LLP', now())`,
      );
      await database.db.execute(
        sql`insert into users (id, email, created_at) values ('user_a', 'a@a.example', now())`,
      );
      const grant = (id: string, lastUsed: string | null) =>
        database.db.execute(
          sql`insert into mcp_grants (id, account_id, approver_user_id, client_id, client_kind, redirect_host, scopes, resource, created_at, last_used_at)
              values (${id}, 'acct_a', 'user_a', 'mcpc_x', 'dcr', 'claude.ai', 'leads:read', 'https://api.example/v1/mcp', '2026-03-01T12:00:00Z', ${lastUsed})`,
        );
      await grant('grant_exchanged', null);
      await grant('grant_used', '2026-03-02T08:00:00Z');
      await grant('grant_never', null);
      await database.db.execute(
        sql`insert into mcp_refresh_tokens (id, grant_id, token_hmac, scopes, resource, expires_at, created_at)
            values ('mrt_1', 'grant_exchanged', 'h1', 'leads:read', 'https://api.example/v1/mcp', '2026-05-01T12:00:00Z', '2026-03-01T12:00:30Z'),
                   ('mrt_2', 'grant_exchanged', 'h2', 'leads:read', 'https://api.example/v1/mcp', '2026-05-01T12:00:00Z', '2026-03-01T13:00:00Z')`,
      );

      const applied = await migrate(database);
      expect(applied).toContain('0016_mcp_grant_activated.sql');
      expect(applied).toContain('0017_mcp_grant_activated_backfill.sql');

      const rows = (await database.db.execute(
        sql`select id, activated_at from mcp_grants order by id`,
      )) as unknown as { rows: { id: string; activated_at: Date | string | null }[] };
      const at = (v: Date | string | null) => (v === null ? null : new Date(v).toISOString());
      expect(rows.rows.map((r) => [r.id, at(r.activated_at)])).toEqual([
        ['grant_exchanged', '2026-03-01T12:00:30.000Z'],
        ['grant_never', null],
        ['grant_used', '2026-03-02T08:00:00.000Z'],
      ]);
    } finally {
      await database.close();
    }
  }, 60_000);
});
