import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { listInvitations } from '../../domain/accounts/invitations.ts';
import { changeMemberRole, inviteToFirm, listMembers, removeMember } from '../../domain/accounts/members.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, IdParam, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;
const Role = z.enum(['owner', 'admin', 'viewer']);

const routes = {
  members: createRoute({
    method: 'get',
    path: '/portal/members',
    tags,
    security,
    middleware: anyMember,
    responses: portalOk('Members', A.MemberList),
  }),
  invite: createRoute({
    method: 'post',
    path: '/portal/members',
    tags,
    security,
    middleware: adminOnly,
    summary:
      'Invite someone by e-mail (admin or owner; owners only for the owner role). A member of this firm gets the role at once; anyone else an invitation to accept (72 h; at most 3 per address and 20 per firm a day)',
    request: jsonBody(z.object({ email: z.email().max(254), role: Role })),
    responses: portalOk(
      'Invited (status invited) or role changed (status role_changed); 429 over a daily limit',
      A.Invited,
      400,
    ),
  }),
  invitations: createRoute({
    method: 'get',
    path: '/portal/members/invitations',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Invitations this firm sent that still wait for an answer (admin or owner)',
    responses: portalOk('Open invitations', A.InvitationList),
  }),
  changeRole: createRoute({
    method: 'patch',
    path: '/portal/members/{id}',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Change a member’s role (admin or owner; only owners change owners or make owners)',
    request: { params: IdParam, ...jsonBody(z.object({ role: Role })) },
    responses: portalOk('Changed', A.Changed, 400, 404),
  }),
  removeMember: createRoute({
    method: 'delete',
    path: '/portal/members/{id}',
    tags,
    security,
    middleware: adminOnly,
    request: { params: IdParam },
    responses: portalOk('Removed', A.Removed, 400, 404),
  }),
};

/** Settings → Members: who is in the firm with which role, invitations, role changes, removal. */
export function registerPortalMemberRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  router.openapi(routes.members, async (c) => c.json({ data: await listMembers(deps, portalOf(c)) }, 200));
  router.openapi(routes.invite, async (c) => {
    const p = portalOf(c);
    const { email, role } = c.req.valid('json');
    const invited = await inviteToFirm(deps, p, { email, role });
    // The link goes by e-mail only: whoever invites must not be able to sign in as the invitee.
    return c.json(
      invited.status === 'invited'
        ? { ...invited, expiresAt: invited.expiresAt.toISOString() }
        : { status: invited.status, userId: invited.userId },
      200,
    );
  });
  router.openapi(routes.invitations, async (c) =>
    c.json({ data: await listInvitations(deps, portalOf(c)) }, 200),
  );
  router.openapi(routes.changeRole, async (c) => {
    await changeMemberRole(deps, portalOf(c), c.req.valid('param').id, c.req.valid('json').role);
    return c.json({ changed: true }, 200);
  });
  router.openapi(routes.removeMember, async (c) => {
    await removeMember(deps, portalOf(c), c.req.valid('param').id);
    return c.json({ removed: true }, 200);
  });
}
