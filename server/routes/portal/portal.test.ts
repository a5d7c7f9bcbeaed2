import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../domain/accounts/accounts.ts';
import { inviteMember } from '../../domain/accounts/members.ts';
import { csvField } from '../../domain/portal/leads-csv.ts';
import { sessionCookie } from '../../http/auth/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let ctx: TestContext;
let origin: string;

beforeAll(async () => {
  // Sign-in limits at their real size (RATE_LIMIT_SCALE 1): the limit tests count to them.
  ctx = await createTestContext({ RATE_LIMIT_SCALE: '1' });
  origin = ctx.services.config.publicPortalUrl;
});
afterAll(() => ctx.close());

let ipCounter = 0;
const post = (path: string, body: unknown, headers: Record<string, string> = {}) =>
  ctx.app.request(path, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin, ...headers },
    body: JSON.stringify(body),
  });

async function firmWithMember(
  role: 'owner' | 'admin' | 'viewer' = 'owner',
  email = `p${++ipCounter}@firm.example`,
) {
  const { account } = await ctx.seed.firm();
  const invited = await inviteMember(ctx.services.portal, {
    accountId: account.id,
    email,
    role,
    invitedBy: null,
  });
  return { account, email, token: new URL(invited.link).hash.replace('#token=', '') };
}

async function signIn(token: string, cookie?: string) {
  const res = await post('/v1/portal/auth/link', { token }, cookie ? { cookie } : {});
  const setCookie = res.headers.get('set-cookie') ?? '';
  return { res, setCookie, cookie: setCookie.split(';')[0]! };
}

async function session(cookie: string) {
  const res = await ctx.app.request('/v1/portal/session', { headers: { cookie } });
  return {
    res,
    body:
      res.status === 200 ? ((await res.json()) as { csrfToken: string; firm: { id: string } }) : undefined,
  };
}

function writer(cookie: string, csrf: string) {
  return (method: string, path: string, body?: unknown, extra: Record<string, string> = {}) =>
    ctx.app.request(`/v1/portal/${path}`, {
      method,
      headers: { cookie, origin, 'x-csrf-token': csrf, 'content-type': 'application/json', ...extra },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
}

describe('magic links and sessions', () => {
  it('a link signs in once; the cookie is HttpOnly, SameSite=Lax, not Secure on localhost', async () => {
    const { token } = await firmWithMember();
    const first = await signIn(token);
    expect(first.res.status).toBe(200);
    expect(first.setCookie).toMatch(/^svc_session=svc_ps_/);
    expect(first.setCookie).toContain('HttpOnly');
    expect(first.setCookie).toContain('SameSite=Lax');
    expect(first.setCookie).not.toContain('Secure');
    expect((await session(first.cookie)).res.status).toBe(200);
    const second = await signIn(token);
    expect(second.res.status).toBe(401);
    expect(((await second.res.json()) as { error: { code: string } }).error.code).toBe('UNAUTHORIZED');
  });

  it('an expired link is refused', async () => {
    const { token } = await firmWithMember();
    ctx.clock.advance(73 * 3_600_000); // invites live 72 hours
    try {
      expect((await signIn(token)).res.status).toBe(401);
    } finally {
      ctx.clock.set('2026-03-01T12:00:00Z');
    }
  });

  it('over HTTPS the cookie is Secure with the __Host- prefix', () => {
    expect(sessionCookie('https://portal.example.com')).toMatchObject({
      name: '__Host-svc_session',
      options: { secure: true, httpOnly: true, sameSite: 'Lax', path: '/' },
    });
    expect(sessionCookie('http://portal.internal:8080').options.secure).toBe(true);
    expect(sessionCookie('http://localhost:8787').options.secure).toBe(false);
  });

  it('over HTTPS the Set-Cookie is `__Host-svc_session` with Secure, and it is read back', async () => {
    const https = await createTestContext({ PUBLIC_PORTAL_URL: 'https://portal.smithlaw.example' });
    const { account } = await https.seed.firm();
    const invited = await inviteMember(https.services.portal, {
      accountId: account.id,
      email: 'https@firm.example',
      role: 'owner',
      invitedBy: null,
    });
    const res = await https.app.request('/v1/portal/auth/link', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'https://portal.smithlaw.example' },
      body: JSON.stringify({ token: new URL(invited.link).hash.replace('#token=', '') }),
    });
    const setCookie = res.headers.get('set-cookie')!;
    expect(setCookie).toMatch(/^__Host-svc_session=svc_ps_/);
    expect(setCookie).toContain('Secure');
    const me = await https.app.request('/v1/portal/session', {
      headers: { cookie: setCookie.split(';')[0]! },
    });
    expect(me.status).toBe(200);
  });

  it('signing in again rotates: the session the browser presented ends', async () => {
    const member = await firmWithMember();
    const a = await signIn(member.token);
    const again = await inviteMember(ctx.services.portal, {
      accountId: member.account.id,
      email: member.email,
      role: 'owner',
      invitedBy: null,
    });
    const b = await signIn(new URL(again.link).hash.replace('#token=', ''), a.cookie);
    expect(b.cookie).not.toBe(a.cookie);
    expect((await session(a.cookie)).res.status).toBe(401);
    expect((await session(b.cookie)).res.status).toBe(200);
  });

  it('sign-out revokes the session on the server, not only in the browser', async () => {
    const { token } = await firmWithMember();
    const { cookie } = await signIn(token);
    const { body } = await session(cookie);
    const res = await writer(cookie, body!.csrfToken)('POST', 'session/sign-out');
    expect(res.status).toBe(200);
    expect((await session(cookie)).res.status).toBe(401);
  });

  it('a session expires after 12 hours', async () => {
    const { token } = await firmWithMember();
    const { cookie } = await signIn(token);
    ctx.clock.advance(12 * 3_600_000 + 1000);
    try {
      expect((await session(cookie)).res.status).toBe(401);
    } finally {
      ctx.clock.set('2026-03-01T12:00:00Z');
    }
  });

  it('the sign-in endpoint answers the same for unknown addresses and sends nothing', async () => {
    const res = await post('/v1/portal/auth/email', { email: 'stranger@nowhere.example' });
    expect(res.status).toBe(202);
    expect(await res.json()).toEqual({ sent: true });
  });
});

describe('CSRF', () => {
  it('refuses writes without the token, with a wrong token or from another origin', async () => {
    const { token } = await firmWithMember();
    const { cookie } = await signIn(token);
    const { body } = await session(cookie);
    const create = (headers: Record<string, string>) =>
      ctx.app.request('/v1/portal/api-keys', {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json', ...headers },
        body: JSON.stringify({ name: 'k', scopes: ['leads:read'] }),
      });
    expect((await create({ origin })).status).toBe(403);
    expect((await create({ origin, 'x-csrf-token': 'x'.repeat(43) })).status).toBe(403);
    expect((await create({ origin: 'https://evil.example', 'x-csrf-token': body!.csrfToken })).status).toBe(
      403,
    );
    expect((await create({ 'sec-fetch-site': 'cross-site', 'x-csrf-token': body!.csrfToken })).status).toBe(
      403,
    );
    expect((await create({ origin, 'x-csrf-token': body!.csrfToken })).status).toBe(200);
  });

  it('refuses a cross-origin sign-in request (login CSRF)', async () => {
    const { token } = await firmWithMember();
    const res = await post('/v1/portal/auth/link', { token }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
  });
});

describe('roles and tenancy', () => {
  it('a viewer reads but may not create keys, change leads or invite', async () => {
    const { token } = await firmWithMember('viewer');
    const { cookie } = await signIn(token);
    const { body } = await session(cookie);
    const call = writer(cookie, body!.csrfToken);
    expect((await ctx.app.request('/v1/portal/api-keys', { headers: { cookie } })).status).toBe(200);
    expect((await call('POST', 'api-keys', { name: 'k', scopes: ['admin'] })).status).toBe(403);
    expect((await call('POST', 'members', { email: 'x@example.com', role: 'viewer' })).status).toBe(403);
  });

  it("another firm's license, key and member ids are 404", async () => {
    const mine = await firmWithMember();
    const theirs = await firmWithMember();
    const { cookie } = await signIn(mine.token);
    const { body } = await session(cookie);
    const call = writer(cookie, body!.csrfToken);
    const key = await ctx.seed.apiKey(theirs.account.id);
    expect((await call('POST', `api-keys/${key.row.id}/revoke`)).status).toBe(404);
    const theirSession = await signIn(theirs.token);
    const theirLicenses = (await (
      await ctx.app.request('/v1/portal/licenses', { headers: { cookie: theirSession.cookie } })
    ).json()) as { data: { id: string }[] };
    expect(
      (await ctx.app.request(`/v1/portal/licenses/${theirLicenses.data[0]!.id}`, { headers: { cookie } }))
        .status,
    ).toBe(404);
    const theirUser = (await (
      await ctx.app.request('/v1/portal/members', { headers: { cookie: theirSession.cookie } })
    ).json()) as {
      data: { userId: string }[];
    };
    expect((await call('DELETE', `members/${theirUser.data[0]!.userId}`)).status).toBe(404);
  });

  it('the last owner cannot be removed; a removed member is signed out at once', async () => {
    const owner = await firmWithMember('owner');
    const { cookie } = await signIn(owner.token);
    const { body } = await session(cookie);
    const call = writer(cookie, body!.csrfToken);
    const invited = await inviteMember(ctx.services.portal, {
      accountId: owner.account.id,
      email: 'admin2@firm.example',
      role: 'admin',
      invitedBy: null,
    });
    const adminSession = await signIn(new URL(invited.link).hash.replace('#token=', ''));
    expect((await session(adminSession.cookie)).res.status).toBe(200);
    expect((await call('DELETE', `members/${invited.userId}`)).status).toBe(200);
    expect((await session(adminSession.cookie)).res.status).toBe(401);
    const members = (await (await ctx.app.request('/v1/portal/members', { headers: { cookie } })).json()) as {
      data: { userId: string }[];
    };
    const res = await call('DELETE', `members/${members.data[0]!.userId}`);
    expect(res.status).toBe(400);
  });

  it('an operator can give an existing account its first owner (what `svc user invite` calls)', async () => {
    const account = await createAccount(ctx.services.licensing, { name: 'No Owner Yet LLP' });
    const invited = await inviteMember(ctx.services.portal, {
      accountId: account.id,
      email: 'First@Owner.example',
      role: 'owner',
      invitedBy: null,
    });
    const { cookie } = await signIn(new URL(invited.link).hash.replace('#token=', ''));
    const { body } = await session(cookie);
    expect(body).toMatchObject({
      firm: { id: account.id, role: 'owner' },
      user: { email: 'first@owner.example' },
    });
    await expect(
      inviteMember(ctx.services.portal, {
        accountId: 'acct_nope',
        email: 'a@b.example',
        role: 'owner',
        invitedBy: null,
      }),
    ).rejects.toMatchObject({ code: 'NOT_FOUND' });
  });
});

describe('Connect consent', () => {
  const base = {
    response_type: 'code',
    client_id: 'svc for WordPress',
    state: 'xyz',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
  };

  it.each([
    ['https://smithlaw.com/wp-admin/cb', 'smithlaw.com', 200],
    ['https://www.smithlaw.com/cb', 'smithlaw.com', 200],
    ['http://smithlaw.com/cb', 'smithlaw.com', 400],
    ['https://evil.example/cb', 'smithlaw.com', 400],
    ['https://smithlaw.com.evil.example/cb', 'smithlaw.com', 400],
    ['http://localhost:8080/cb', 'localhost', 200],
    ['https://smithlaw.com/cb#frag', 'smithlaw.com', 400],
    ['not a url', 'smithlaw.com', 400],
  ])('redirect_uri %s for %s → %i', async (redirectUri, site, status) => {
    const { token } = await firmWithMember();
    const { cookie } = await signIn(token);
    const query = new URLSearchParams({ ...base, redirect_uri: redirectUri, site_domain: site });
    const res = await ctx.app.request(`/v1/portal/connect?${query}`, { headers: { cookie } });
    expect(res.status).toBe(status);
  });

  it('shows a Unicode site in both forms and approves with a code and the state; denies with access_denied', async () => {
    const { account } = await ctx.seed.firm({ domains: ['bücher.example'] });
    const invited = await inviteMember(ctx.services.portal, {
      accountId: account.id,
      email: 'idn@firm.example',
      role: 'admin',
      invitedBy: null,
    });
    const { cookie } = await signIn(new URL(invited.link).hash.replace('#token=', ''));
    const { body } = await session(cookie);
    const params = {
      ...base,
      redirect_uri: 'https://xn--bcher-kva.example/cb',
      site_domain: 'bücher.example',
    };
    const described = (await (
      await ctx.app.request(`/v1/portal/connect?${new URLSearchParams(params)}`, { headers: { cookie } })
    ).json()) as { site: { ascii: string; unicode: string }; licenses: { id: string }[] };
    expect(described.site).toEqual({ ascii: 'xn--bcher-kva.example', unicode: 'bücher.example' });
    expect(described.licenses).toHaveLength(1);
    const call = writer(cookie, body!.csrfToken);
    const approved = (await (
      await call('POST', 'connect/approve', { ...params, license_id: described.licenses[0]!.id })
    ).json()) as { redirectTo: string };
    const back = new URL(approved.redirectTo);
    expect(back.origin).toBe('https://xn--bcher-kva.example');
    expect(back.searchParams.get('state')).toBe('xyz');
    expect(back.searchParams.get('code')).toMatch(/^svc_ac_/);
    const denied = (await (await call('POST', 'connect/deny', params)).json()) as { redirectTo: string };
    expect(new URL(denied.redirectTo).searchParams.get('error')).toBe('access_denied');
    expect(new URL(denied.redirectTo).searchParams.get('state')).toBe('xyz');
  });
});

describe('Connect consent: the scope asked for', () => {
  const base = {
    response_type: 'code',
    client_id: 'svc for WordPress',
    code_challenge: 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    code_challenge_method: 'S256',
    redirect_uri: 'https://smithlaw.com/wp-admin/cb',
    site_domain: 'smithlaw.com',
  };
  // One sign-in for the block: the file's sign-ins share one test IP's bucket.
  let cookie = '';
  const describeWith = async (extra: Record<string, string>) => {
    if (!cookie) cookie = (await signIn((await firmWithMember()).token)).cookie;
    return ctx.app.request(`/v1/portal/connect?${new URLSearchParams({ ...base, ...extra })}`, {
      headers: { cookie },
    });
  };

  it('shows reading leads as granted and changing leads and billing as withheld for "site leads:read"', async () => {
    const res = await describeWith({ scope: 'site leads:read' });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { scope: string; access: string[]; withheld: string[] };
    expect(body.scope).toBe('site leads:read');
    expect(body.access.some((a) => /leads/i.test(a))).toBe(true);
    expect(body.withheld.some((a) => /billing/i.test(a))).toBe(true);
    expect(body.withheld.some((a) => /change your leads/i.test(a))).toBe(true);
  });

  it('keeps today’s admin access without a scope, and refuses a scope it does not know', async () => {
    expect(((await (await describeWith({})).json()) as { scope: string }).scope).toBe('site admin');
    const bad = await describeWith({ scope: 'billing' });
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { code: string } }).error.code).toBe('INVALID_REQUEST');
  });
});

describe('CSV fields', () => {
  it.each([
    ['plain', '"plain"'],
    ['Zoë "Z" Ødegård', '"Zoë ""Z"" Ødegård"'],
    ['=HYPERLINK("x")', `"'=HYPERLINK(""x"")"`],
    ['+1 555', `"'+1 555"`],
    ['-2', `"'-2"`],
    ['@SUM(A1)', `"'@SUM(A1)"`],
    ['\tTab', `"'\tTab"`],
    ['line\nbreak', '"line\nbreak"'],
    [null, '""'],
  ])('%j → %s', (value, expected) => {
    expect(csvField(value)).toBe(expected);
  });
});

// Last: these spend the one in-process IP's sign-in budget.
describe('sign-in rate limits', () => {
  it('allows 5 link requests per address in 15 minutes, then 429 with Retry-After', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++)
      statuses.push((await post('/v1/portal/auth/email', { email: 'Flood@Example.com' })).status);
    expect(statuses).toEqual([202, 202, 202, 202, 202, 429]);
    const refused = await post('/v1/portal/auth/email', { email: 'flood@example.com' });
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('limits attempts per IP across addresses and link guesses', async () => {
    // This file's earlier requests share the one test IP; keep going until the IP bucket (30) is spent.
    let last = 0;
    for (let i = 0; i < 35 && last !== 429; i++)
      last = (await post('/v1/portal/auth/link', { token: `svc_ml_guess${i}` })).status;
    expect(last).toBe(429);
  });
});
