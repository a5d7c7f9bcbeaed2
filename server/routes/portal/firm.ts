import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { createApiKey, revokeApiKey } from '../../domain/accounts/api-keys.ts';
import { listInvitations } from '../../domain/accounts/invitations.ts';
import { changeMemberRole, inviteToFirm, listMembers, removeMember } from '../../domain/accounts/members.ts';
import { actorOf, type PortalDeps } from '../../domain/accounts/portal-deps.ts';
import { API_KEY_SCOPES } from '../../domain/credentials/scopes.ts';
import { changeLeadStatus } from '../../domain/leads/intake.ts';
import { hiddenTestLeads, pageOfFirmLeads } from '../../domain/portal/firm-leads.ts';
import {
  firmActivity,
  firmLicense,
  firmOverview,
  listFirmApiKeys,
  listFirmLicenses,
} from '../../domain/portal/firm-views.ts';
import { leadsCsvStream } from '../../domain/portal/leads-csv.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf, requirePortalRole } from '../../http/auth/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import * as A from './answers.ts';
import { ActivityKindQuery, LeadFilterQuery, leadFilterOf } from './leads.ts';
import { adminOnly, anyMember, IdParam, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;
const Status = z.enum(['new', 'contacted', 'converted']);
const Role = z.enum(['owner', 'admin', 'viewer']);
const exportRole = requirePortalRole(
  'admin',
  'Exporting leads needs the admin or owner role: the file holds people’s personal data.',
);

const routes = {
  overview: createRoute({
    method: 'get',
    path: '/portal/overview',
    tags,
    security,
    middleware: anyMember,
    responses: portalOk('Overview', A.Overview),
  }),
  licenses: createRoute({
    method: 'get',
    path: '/portal/licenses',
    tags,
    security,
    middleware: anyMember,
    responses: portalOk('Licenses', A.LicenseList),
  }),
  license: createRoute({
    method: 'get',
    path: '/portal/licenses/{id}',
    tags,
    security,
    middleware: anyMember,
    request: { params: IdParam },
    responses: portalOk('One license with its activations', A.OneLicense, 404),
  }),
  apiKeys: createRoute({
    method: 'get',
    path: '/portal/api-keys',
    tags,
    security,
    middleware: anyMember,
    responses: portalOk('API keys', A.ApiKeyList),
  }),
  createApiKey: createRoute({
    method: 'post',
    path: '/portal/api-keys',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Create an API key (admin or owner); the key is in this response only',
    request: jsonBody(
      z.object({
        name: z.string().trim().min(1).max(100),
        scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length),
      }),
    ),
    responses: portalOk('The new key', A.CreatedApiKey, 400),
  }),
  revokeApiKey: createRoute({
    method: 'post',
    path: '/portal/api-keys/{id}/revoke',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Revoke an API key; the next call with it is refused',
    request: { params: IdParam },
    responses: portalOk('Revoked', A.Revoked, 404),
  }),
  leads: createRoute({
    method: 'get',
    path: '/portal/leads',
    tags,
    security,
    middleware: anyMember,
    request: {
      query: LeadFilterQuery.extend({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional(),
      }),
    },
    responses: portalOk('A page of leads', A.LeadPage, 400),
  }),
  exportLeads: createRoute({
    method: 'get',
    path: '/portal/leads/export.csv',
    tags,
    security,
    middleware: exportRole,
    summary:
      'The filtered leads as CSV (admin or owner; written to the audit trail; streamed; formula-safe cells)',
    request: { query: LeadFilterQuery },
    responses: { 200: { description: 'CSV', content: { 'text/csv': { schema: z.string() } } } },
  }),
  leadStatus: createRoute({
    method: 'patch',
    path: '/portal/leads/{id}',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Change a lead’s status along the allowed transitions',
    request: { params: IdParam, ...jsonBody(z.object({ status: Status })) },
    responses: portalOk('The lead', A.OneLead, 400, 404, 409),
  }),
  activity: createRoute({
    method: 'get',
    path: '/portal/activity',
    tags,
    security,
    middleware: anyMember,
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional(),
        kind: ActivityKindQuery,
      }),
    },
    responses: portalOk('Audit trail, newest first', A.ActivityPage, 400),
  }),
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

/** The firm's data, scoped by the session's firm. Viewers read; admins and owners change. */
export function registerPortalFirmRoutes(router: OpenAPIHono<AppEnv>, deps: PortalDeps) {
  router.openapi(routes.overview, async (c) => c.json(await firmOverview(deps, portalOf(c)), 200));
  router.openapi(routes.licenses, async (c) =>
    c.json({ data: await listFirmLicenses(deps, portalOf(c)) }, 200),
  );
  router.openapi(routes.license, async (c) =>
    c.json({ license: await firmLicense(deps, portalOf(c), c.req.valid('param').id) }, 200),
  );
  router.openapi(routes.apiKeys, async (c) =>
    c.json({ data: await listFirmApiKeys(deps, portalOf(c)) }, 200),
  );
  // The key is in this answer only (stored as an HMAC); the trail names who made it, with which scopes.
  router.openapi(routes.createApiKey, async (c) => {
    const p = portalOf(c);
    const { name, scopes } = c.req.valid('json');
    const { apiKey, row } = await createApiKey(
      deps,
      { accountId: p.accountId, name, scopes, createdBy: p.userId },
      actorOf(p),
    );
    return c.json({ apiKey, id: row.id, name: row.name, last4: row.keyLast4, scopes }, 200);
  });
  // Immediate: the next request with the key (REST or MCP) is refused. A foreign id is NOT_FOUND.
  router.openapi(routes.revokeApiKey, async (c) => {
    const p = portalOf(c);
    await revokeApiKey(deps, p.accountId, c.req.valid('param').id, actorOf(p));
    return c.json({ revoked: true }, 200);
  });
  router.openapi(routes.leads, async (c) => {
    const { limit, cursor, ...filter } = c.req.valid('query');
    const { accountId } = portalOf(c);
    const leadFilter = leadFilterOf(filter);
    const [page, hiddenTest] = await Promise.all([
      pageOfFirmLeads(deps, accountId, { ...leadFilter, limit, ...(cursor ? { cursor } : {}) }),
      hiddenTestLeads(deps, accountId, leadFilter),
    ]);
    return c.json({ ...page, hiddenTest }, 200);
  });
  router.openapi(routes.exportLeads, async (c) => {
    const query = c.req.valid('query');
    const day = deps.clock.now().toISOString().slice(0, 10);
    return c.body(await leadsCsvStream(deps, portalOf(c), leadFilterOf(query)), 200, {
      'Content-Type': 'text/csv; charset=utf-8',
      'Content-Disposition': `attachment; filename="leads-${query.status ?? 'all'}-${day}.csv"`,
    }) as never;
  });
  router.openapi(routes.leadStatus, async (c) => {
    const p = portalOf(c);
    const { status } = c.req.valid('json');
    const lead = await changeLeadStatus(deps, p.accountId, c.req.valid('param').id, status, actorOf(p));
    return c.json({ lead }, 200);
  });
  router.openapi(routes.activity, async (c) => {
    const { limit, cursor, kind } = c.req.valid('query');
    return c.json(
      await firmActivity(deps, portalOf(c), {
        limit,
        ...(cursor ? { cursor } : {}),
        ...(kind ? { kind } : {}),
      }),
      200,
    );
  });
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
