import { inviteMember } from '../domain/accounts/members.ts';
import type { TestContext } from './services.ts';

let counter = 0;

/**
 * A signed-in portal member of `accountId` over `app.request`: redeems an invite link, reads the
 * CSRF token, and returns a caller that sends the cookie, the portal's Origin and the token.
 */
export async function portalCaller(
  ctx: TestContext,
  accountId: string,
  role: 'owner' | 'admin' | 'viewer',
  email = `member${++counter}@firm.example`,
) {
  const origin = ctx.services.config.publicPortalUrl;
  const invited = await inviteMember(ctx.services.portal, { accountId, email, role, invitedBy: null });
  const token = new URL(invited.link).hash.replace('#token=', '');
  const signIn = await ctx.app.request('/v1/portal/auth/link', {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin },
    body: JSON.stringify({ token }),
  });
  const cookie = (signIn.headers.get('set-cookie') ?? '').split(';')[0]!;
  const session = (await (await ctx.app.request('/v1/portal/session', { headers: { cookie } })).json()) as {
    csrfToken: string;
    user: { id: string };
  };
  const call = async (method: string, path: string, body?: unknown, headers: Record<string, string> = {}) => {
    const res = await ctx.app.request(`/v1/portal/${path}`, {
      method,
      headers: {
        cookie,
        origin,
        'x-csrf-token': session.csrfToken,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...headers,
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    // biome-ignore lint/suspicious/noExplicitAny: test bodies are read field by field
    return { status: res.status, body: (await res.json()) as any };
  };
  return { call, email, cookie, csrfToken: session.csrfToken, userId: session.user.id };
}
