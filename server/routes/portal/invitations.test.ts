import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/engine/database.ts';
import { accounts, memberships } from '../../db/engine/schema.ts';
import { runRetention } from '../../domain/delivery/retention.ts';
import { createPostgresTestDatabase } from '../../test-support/db.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * A firm's invitation is an offer: no membership exists until the invitee accepts it, signed in as
 * themselves by the link only they received. Member lists show only this firm's facts, and
 * invitations are limited per address and per firm (issue 23). On PGlite and on PostgreSQL.
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

/** The file mailer writes quoted-printable parts: soft line breaks and =XX bytes undone. */
const decodeQuotedPrintable = (raw: string) =>
  Buffer.from(
    raw
      .replace(/=\r?\n/g, '')
      .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16))),
    'latin1',
  ).toString('utf8');

type Member = { email: string; userId: string; role: string; lastSignInAt: string | null };

describe.each(backends)('firm invitations (%s)', (_name, open) => {
  let ctx: TestContext;
  let drop: () => Promise<void>;
  let outbox: string;
  let n = 0;
  beforeAll(async () => {
    const backend = await open();
    drop = backend.drop;
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-invitations-'));
    outbox = join(dataDir, 'outbox');
    ctx = await createTestContext(
      { SECRET_KEY: randomBytes(32).toString('hex'), DATA_DIR: dataDir },
      backend.database,
    );
  });
  afterAll(async () => {
    if (drop) await drop();
    else await ctx?.close();
  });

  const firm = async () => (await ctx.seed.firm()).account.id;
  const address = () => `i${++n}-${randomBytes(3).toString('hex')}@firm.example`;
  const member = (accountId: string, role: 'owner' | 'admin' | 'viewer', email = address()) =>
    portalCaller(ctx, accountId, role, email);
  const origin = () => ctx.services.config.publicPortalUrl;
  const post = (path: string, body: unknown, cookie?: string) =>
    ctx.app.request(`/v1/portal/${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: origin(), ...(cookie ? { cookie } : {}) },
      body: JSON.stringify(body),
    });
  /** The token in the newest invitation mail to `to` (the file mailer writes DATA_DIR/outbox). */
  const tokenMailedTo = (to: string) => {
    const mails = readdirSync(outbox)
      .map((f) => decodeQuotedPrintable(readFileSync(join(outbox, f), 'utf8')))
      .filter((m) => m.includes(`To: ${to}`) && m.includes('svc_inv_'));
    const last = mails.at(-1);
    return { mail: last ?? '', token: /svc_inv_[0-9A-Za-z]+/.exec(last ?? '')?.[0] ?? '' };
  };
  const membersOf = async (call: Awaited<ReturnType<typeof member>>['call']) =>
    (await call('GET', 'members')).body.data as Member[];

  it('inviting another firm’s owner creates no membership and shows none of their facts', async () => {
    const [mine, theirs] = [await firm(), await firm()];
    const admin = await member(mine, 'admin');
    const other = await member(theirs, 'owner');
    const res = await admin.call('POST', 'members', { email: other.email, role: 'viewer' });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe('invited');
    const rows = await ctx.database.db.select().from(memberships).where(eq(memberships.accountId, mine));
    expect(rows.map((r) => r.userId)).not.toContain(other.userId);
    expect((await membersOf(admin.call)).map((m) => m.email)).not.toContain(other.email);
    const pending = (await admin.call('GET', 'members/invitations')).body.data as { email: string }[];
    expect(pending.map((p) => p.email)).toContain(other.email);
    expect(JSON.stringify(pending)).not.toMatch(/lastSignIn/);
  });

  it('the invitee accepts with the mailed link, signed in as themselves; member list shows this firm’s facts', async () => {
    const [mine, theirs] = [await firm(), await firm()];
    const owner = await member(mine, 'owner');
    const other = await member(theirs, 'owner'); // signed in elsewhere: a global last sign-in exists
    expect((await owner.call('POST', 'members', { email: other.email, role: 'admin' })).status).toBe(200);
    const { token } = tokenMailedTo(other.email);
    expect(token).not.toBe('');
    const preview = await post('invitations/lookup', { token });
    expect(preview.status).toBe(200);
    expect(await preview.json()).toMatchObject({ role: 'admin', email: other.email });
    // Before acceptance: still not a member.
    expect((await membersOf(owner.call)).map((m) => m.email)).not.toContain(other.email);
    const accepted = await post('invitations/accept', { token });
    expect(accepted.status).toBe(200);
    const cookie = (accepted.headers.get('set-cookie') ?? '').split(';')[0]!;
    const session = await (await ctx.app.request('/v1/portal/session', { headers: { cookie } })).json();
    expect(session.user.email).toBe(other.email);
    expect(session.firm.id).toBe(mine);
    const listed = (await membersOf(owner.call)).find((m) => m.email === other.email)!;
    expect(listed.role).toBe('admin');
    // The same link works once.
    expect((await post('invitations/accept', { token })).status).toBe(401);
  });

  it('a member list never shows a sign-in into another firm', async () => {
    const [mine, theirs] = [await firm(), await firm()];
    const owner = await member(mine, 'owner');
    const other = await member(theirs, 'owner');
    await owner.call('POST', 'members', { email: other.email, role: 'viewer' });
    expect((await post('invitations/accept', { token: tokenMailedTo(other.email).token })).status).toBe(200);
    ctx.clock.advance(60_000);
    await member(theirs, 'owner', other.email); // signs in to the other firm again
    ctx.clock.advance(-60_000);
    const listed = (await membersOf(owner.call)).find((m) => m.email === other.email)!;
    expect(new Date(listed.lastSignInAt!).getTime()).toBeLessThanOrEqual(ctx.clock.now().getTime());
  });

  it('declining leaves no membership; an expired invitation cannot be accepted', async () => {
    const mine = await firm();
    const owner = await member(mine, 'owner');
    const a = address();
    await owner.call('POST', 'members', { email: a, role: 'viewer' });
    expect((await post('invitations/decline', { token: tokenMailedTo(a).token })).status).toBe(200);
    expect((await post('invitations/accept', { token: tokenMailedTo(a).token })).status).toBe(401);
    const b = address();
    await owner.call('POST', 'members', { email: b, role: 'viewer' });
    const start = ctx.clock.now();
    try {
      ctx.clock.set(new Date(start.getTime() + 72 * 3_600_000 + 1_000).toISOString());
      expect((await post('invitations/accept', { token: tokenMailedTo(b).token })).status).toBe(401);
    } finally {
      ctx.clock.set(start.toISOString());
    }
    expect((await membersOf(owner.call)).map((m) => m.email)).not.toContain(a);
    expect((await membersOf(owner.call)).map((m) => m.email)).not.toContain(b);
  });

  it('an invitation ends with the membership it came from or led to (removal, demotion, a second link)', async () => {
    const mine = await firm();
    const owner = await member(mine, 'owner');
    // An admin about to be removed invites a second address of theirs; after removal it is void.
    const leaving = await member(mine, 'admin');
    const spare = address();
    expect((await leaving.call('POST', 'members', { email: spare, role: 'admin' })).status).toBe(200);
    const spareToken = tokenMailedTo(spare).token;
    expect((await owner.call('DELETE', `members/${leaving.userId}`)).status).toBe(200);
    expect((await post('invitations/accept', { token: spareToken })).status).toBe(401);
    // An admin demoted to viewer can no longer bring anyone in.
    const demoted = await member(mine, 'admin');
    const friend = address();
    await demoted.call('POST', 'members', { email: friend, role: 'viewer' });
    const friendToken = tokenMailedTo(friend).token;
    expect((await owner.call('POST', 'members', { email: demoted.email, role: 'viewer' })).status).toBe(200);
    expect((await post('invitations/accept', { token: friendToken })).status).toBe(401);
    // A member who kept a second link cannot rejoin with it after being removed.
    const twice = address();
    const tokensTo = (to: string) =>
      readdirSync(outbox)
        .map((f) => decodeQuotedPrintable(readFileSync(join(outbox, f), 'utf8')))
        .filter((m) => m.includes(`To: ${to}`))
        .map((m) => /svc_inv_[0-9A-Za-z]+/.exec(m)?.[0] ?? '');
    await owner.call('POST', 'members', { email: twice, role: 'viewer' });
    const [first] = tokensTo(twice);
    await owner.call('POST', 'members', { email: twice, role: 'viewer' });
    const second = tokensTo(twice).find((t) => t !== first)!;
    expect([first, second].every((t) => t?.startsWith('svc_inv_'))).toBe(true);
    expect((await post('invitations/accept', { token: second })).status).toBe(200);
    const joined = (await membersOf(owner.call)).find((m) => m.email === twice)!;
    expect((await owner.call('DELETE', `members/${joined.userId}`)).status).toBe(200);
    expect((await post('invitations/accept', { token: first })).status).toBe(401);
    expect((await membersOf(owner.call)).map((m) => m.email)).not.toContain(twice);
  });

  it('accepting never demotes an existing member', async () => {
    const mine = await firm();
    const owner = await member(mine, 'owner');
    const a = address();
    await owner.call('POST', 'members', { email: a, role: 'viewer' });
    await member(mine, 'owner', a); // meanwhile the operator made them owner
    expect((await post('invitations/accept', { token: tokenMailedTo(a).token })).status).toBe(200);
    expect((await membersOf(owner.call)).find((m) => m.email === a)!.role).toBe('owner');
  });

  it('at most 3 invitations to one address a day across firms, even at once; 429 with a clear error', async () => {
    const target = address();
    const inviters = await Promise.all([1, 2, 3, 4, 5].map(async () => member(await firm(), 'admin')));
    const results = await Promise.all(
      inviters.map((m) => m.call('POST', 'members', { email: target, role: 'viewer' })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(3);
    const refused = results.filter((r) => r.status !== 200);
    expect(refused.map((r) => r.body.error.code)).toEqual(['RATE_LIMITED', 'RATE_LIMITED']);
    expect(refused[0]!.body.error.status).toBe(429);
  });

  it('at most 20 invitations a day from one firm', async () => {
    const owner = await member(await firm(), 'owner');
    for (let i = 0; i < 20; i++)
      expect((await owner.call('POST', 'members', { email: address(), role: 'viewer' })).status).toBe(200);
    const refused = await owner.call('POST', 'members', { email: address(), role: 'viewer' });
    expect(refused.status).toBe(429);
    expect(refused.body.error.code).toBe('RATE_LIMITED');
  });

  it('a firm name cannot forge lines in the invitation mail', async () => {
    const mine = await firm();
    await ctx.database.db
      .update(accounts)
      .set({ name: 'Acme\r\n\r\nYour account is locked: call 555-0100\r\n' })
      .where(eq(accounts.id, mine));
    const owner = await member(mine, 'owner');
    const a = address();
    await owner.call('POST', 'members', { email: a, role: 'viewer' });
    const { mail } = tokenMailedTo(a);
    const text = mail.split(/\n\n/).slice(1).join('\n\n');
    expect(text).toContain('Someone at the firm named');
    expect(text).not.toMatch(/^Your account is locked/m);
    expect(text).toMatch(/“Acme Your account is locked: call 555-0100”/);
  });

  it('invitation mail files go once the invitation has expired', async () => {
    const owner = await member(await firm(), 'owner');
    const a = address();
    await owner.call('POST', 'members', { email: a, role: 'viewer' });
    const file = readdirSync(outbox).find((f) => readFileSync(join(outbox, f), 'utf8').includes(`To: ${a}`))!;
    const start = ctx.clock.now();
    try {
      ctx.clock.set(new Date(start.getTime() + 71 * 3_600_000).toISOString());
      await runRetention(ctx.services.delivery);
      expect(readdirSync(outbox)).toContain(file);
      ctx.clock.set(new Date(start.getTime() + 73 * 3_600_000).toISOString());
      await runRetention(ctx.services.delivery);
      expect(readdirSync(outbox)).not.toContain(file);
    } finally {
      ctx.clock.set(start.toISOString());
    }
  });
});
