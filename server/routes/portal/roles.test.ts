import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { listAuditByAccount } from '../../db/repos/audit-repo.ts';
import { insertLead } from '../../db/repos/leads-repo.ts';
import { createPostgresTestDatabase } from '../../test-support/db.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * Firm roles mean what the roles table in docs/portal.md says, on both databases: only an owner changes or
 * removes an owner (by any route), a viewer exports nobody's personal data, and the firm cannot
 * lose its last owner even when two owners demote each other at the same instant.
 */
const backends: [string, () => Promise<{ database?: Database; drop(): Promise<void> }>][] = [
  ['PGlite', async () => ({ drop: async () => {} })],
];
if (process.env.DATABASE_URL) {
  backends.push([
    'PostgreSQL',
    async () => {
      const pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      return { database: pg.database, drop: pg.drop };
    },
  ]);
}

describe.each(backends)('firm roles (%s)', (_name, open) => {
  let ctx: TestContext;
  let drop: () => Promise<void>;
  let n = 0;
  beforeAll(async () => {
    const backend = await open();
    drop = backend.drop;
    ctx = await createTestContext({ SECRET_KEY: randomBytes(32).toString('hex') }, backend.database);
  });
  afterAll(async () => {
    if (drop) await drop();
    else await ctx?.close();
  });

  const firm = async () => (await ctx.seed.firm()).account.id;
  const member = (accountId: string, role: 'owner' | 'admin' | 'viewer') =>
    portalCaller(ctx, accountId, role, `r${++n}-${randomBytes(3).toString('hex')}@firm.example`);
  const roleOf = async (call: Awaited<ReturnType<typeof member>>['call'], email: string) =>
    ((await call('GET', 'members')).body.data as { email: string; role: string }[]).find(
      (m) => m.email === email,
    )?.role;

  it('an admin can neither demote an owner by re-inviting them nor remove them afterwards', async () => {
    const accountId = await firm();
    const owner = await member(accountId, 'owner');
    await member(accountId, 'owner');
    const admin = await member(accountId, 'admin');
    const reinvite = await admin.call('POST', 'members', { email: owner.email, role: 'viewer' });
    expect(reinvite.status).toBe(403);
    expect(reinvite.body.error.code).toBe('FORBIDDEN');
    const ownerId = (
      (await admin.call('GET', 'members')).body.data as { email: string; userId: string }[]
    ).find((m) => m.email === owner.email)!.userId;
    const patch = await admin.call('PATCH', `members/${ownerId}`, { role: 'viewer' });
    expect(patch.status).toBe(403);
    expect(await roleOf(admin.call, owner.email)).toBe('owner');
    expect((await admin.call('DELETE', `members/${ownerId}`)).status).toBe(403);
    // An admin may still manage admins and viewers.
    const viewer = await member(accountId, 'viewer');
    const viewerId = (
      (await admin.call('GET', 'members')).body.data as { email: string; userId: string }[]
    ).find((m) => m.email === viewer.email)!.userId;
    expect((await admin.call('PATCH', `members/${viewerId}`, { role: 'admin' })).status).toBe(200);
    expect((await admin.call('PATCH', `members/${viewerId}`, { role: 'owner' })).status).toBe(403);
  });

  it('a viewer cannot export leads; an admin’s export is on the audit trail with filters and count', async () => {
    const accountId = await firm();
    const at = new Date('2026-02-20T10:00:00Z');
    for (const name of ['Ana Export', 'Ben Export']) {
      await insertLead(ctx.database.db, {
        id: newId('lead'),
        accountId,
        calculator: 'estate-tax',
        name,
        email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
        phone: '+1 212 555 0100',
        state: 'NY',
        status: 'new',
        consentText: 'I agree.',
        consentedAt: at,
        createdAt: at,
        updatedAt: at,
      });
    }
    const viewer = await member(accountId, 'viewer');
    const refused = await ctx.app.request('/v1/portal/leads/export.csv?state=NY', {
      headers: { cookie: viewer.cookie },
    });
    expect(refused.status).toBe(403);
    const text = await refused.text();
    expect(text).not.toContain('Ana Export');
    expect(JSON.parse(text).error.code).toBe('FORBIDDEN');

    const admin = await member(accountId, 'admin');
    const ok = await ctx.app.request('/v1/portal/leads/export.csv?state=NY', {
      headers: { cookie: admin.cookie },
    });
    expect(ok.status).toBe(200);
    expect(await ok.text()).toContain('Ana Export');
    const trail = await listAuditByAccount(ctx.database.db, accountId, { limit: 20 });
    const entry = trail.find((e) => e.action === 'leads.exported');
    expect(entry?.actor).toBe(`user:${admin.email}`);
    expect(entry?.data).toMatchObject({ format: 'csv', filter: { state: 'NY' }, rows: 2 });
    expect(trail.filter((e) => e.action === 'leads.exported')).toHaveLength(1);
  });

  it('two owners demoting each other at the same instant leave the firm with an owner', async () => {
    for (let round = 0; round < 3; round++) {
      const accountId = await firm();
      const a = await member(accountId, 'owner');
      const b = await member(accountId, 'owner');
      // Re-inviting an existing member with another role is how the portal changes a role.
      const [ab, ba] = await Promise.all([
        a.call('POST', 'members', { email: b.email, role: 'admin' }),
        b.call('POST', 'members', { email: a.email, role: 'admin' }),
      ]);
      expect([ab.status, ba.status].sort()).toEqual([200, 400]);
      const roles = await Promise.all([roleOf(a.call, a.email), roleOf(a.call, b.email)]);
      expect(roles.filter((r) => r === 'owner')).toHaveLength(1);
    }
  });

  it('two owners removing each other at once: one stays', async () => {
    const accountId = await firm();
    const a = await member(accountId, 'owner');
    const b = await member(accountId, 'owner');
    const ids = (await a.call('GET', 'members')).body.data as { email: string; userId: string }[];
    const idOf = (email: string) => ids.find((m) => m.email === email)!.userId;
    const [ab, ba] = await Promise.all([
      a.call('DELETE', `members/${idOf(b.email)}`),
      b.call('DELETE', `members/${idOf(a.email)}`),
    ]);
    // The loser may also be signed out already (401) by the winner's removal.
    expect([ab.status, ba.status]).toContain(200);
    expect([ab.status, ba.status].filter((s) => s === 200)).toHaveLength(1);
  });
});
