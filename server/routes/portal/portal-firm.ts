import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { listInvitations } from '../../domain/accounts/invitations.ts';
import { changeMemberRole, inviteToFirm, listMembers, removeMember } from '../../domain/accounts/members.ts';
import type { PortalDeps } from '../../domain/accounts/portal-deps.ts';
import { requireRole } from '../../domain/accounts/roles.ts';
import { API_KEY_SCOPES } from '../../domain/credentials/scopes.ts';
import {
  changeFirmLeadStatus,
  createFirmApiKey,
  revokeFirmApiKey,
} from '../../domain/portal/firm-actions.ts';
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
import { portalOf } from '../../http/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import { ActivityKindQuery, LeadFilterQuery, leadFilterOf } from './portal-leads.ts';
import { IdParam, portalOk, portalSecurity } from './portal-schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;
const Status = z.enum(['new', 'contacted', 'converted']);
const Role = z.enum(['owner', 'admin', 'viewer']);

const routes = {
  overview: createRoute({
    method: 'get',
    path: '/portal/overview',
    tags,
    security,
    responses: portalOk('Overview'),
  }),
  licenses: createRoute({
    method: 'get',
    path: '/portal/licenses',
    tags,
    security,
    responses: portalOk('Licenses'),
  }),
  license: createRoute({
    method: 'get',
    path: '/portal/licenses/{id}',
    tags,
    security,
    request: { params: IdParam },
    responses: portalOk('One license with its activations', 404),
  }),
  apiKeys: createRoute({
    method: 'get',
    path: '/portal/api-keys',
    tags,
    security,
    responses: portalOk('API keys'),
  }),
  createApiKey: createRoute({
    method: 'post',
    path: '/portal/api-keys',
    tags,
    security,
    summary: 'Create an API key (admin or owner); the key is in this response only',
    request: jsonBody(
      z.object({
        name: z.string().trim().min(1).max(100),
        scopes: z.array(z.enum(API_KEY_SCOPES)).min(1).max(API_KEY_SCOPES.length),
      }),
    ),
    responses: portalOk('The new key', 400),
  }),
  revokeApiKey: createRoute({
    method: 'post',
    path: '/portal/api-keys/{id}/revoke',
    tags,
    security,
    summary: 'Revoke an API key; the next call with it is refused',
    request: { params: IdParam },
    responses: portalOk('Revoked', 404),
  }),
  leads: createRoute({
    method: 'get',
    path: '/portal/leads',
    tags,
    security,
    request: {
      query: LeadFilterQuery.extend({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional(),
      }),
    },
    responses: portalOk('A page of leads', 400),
  }),
  exportLeads: createRoute({
    method: 'get',
    path: '/portal/leads/export.csv',
    tags,
    security,
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
    summary: 'Change a lead’s status along the allowed transitions',
    request: { params: IdParam, ...jsonBody(z.object({ status: Status })) },
    responses: portalOk('The lead', 400, 404, 409),
  }),
  activity: createRoute({
    method: 'get',
    path: '/portal/activity',
    tags,
    security,
    request: {
      query: z.object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional(),
        kind: ActivityKindQuery,
      }),
    },
    responses: portalOk('Audit trail, newest first', 400),
  }),
  members: createRoute({
    method: 'get',
    path: '/portal/members',
    tags,
    security,
    responses: portalOk('Members'),
  }),
  invite: createRoute({
    method: 'post',
    path: '/portal/members',
    tags,
    security,
    summary:
      'Invite someone by e-mail (admin or owner; owners only for the owner role). A member of this firm gets the role at once; anyone else an invitation to accept (72 h; at most 3 per address and 20 per firm a day)',
    request: jsonBody(z.object({ email: z.email().max(254), role: Role })),
    responses: portalOk(
      'Invited (status invited) or role changed (status role_changed); 429 over a daily limit',
      400,
    ),
  }),
  invitations: createRoute({
    method: 'get',
    path: '/portal/members/invitations',
    tags,
    security,
    summary: 'Invitations this firm sent that still wait for an answer (admin or owner)',
    responses: portalOk('Open invitations'),
  }),
  changeRole: createRoute({
    method: 'patch',
    path: '/portal/members/{id}',
    tags,
    security,
    summary: 'Change a member’s role (admin or owner; only owners change owners or make owners)',
    request: { params: IdParam, ...jsonBody(z.object({ role: Role })) },
    responses: portalOk('Changed', 400, 404),
  }),
  removeMember: createRoute({
    method: 'delete',
    path: '/portal/members/{id}',
    tags,
    security,
    request: { params: IdParam },
    responses: portalOk('Removed', 400, 404),
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
  router.openapi(routes.createApiKey, async (c) =>
    c.json(await createFirmApiKey(deps, portalOf(c), c.req.valid('json')), 200),
  );
  router.openapi(routes.revokeApiKey, async (c) => {
    await revokeFirmApiKey(deps, portalOf(c), c.req.valid('param').id);
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
    return c.json({ ...page, hiddenTest } as never, 200);
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
    const lead = await changeFirmLeadStatus(
      deps,
      portalOf(c),
      c.req.valid('param').id,
      c.req.valid('json').status,
    );
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
  router.openapi(routes.invitations, async (c) => {
    const p = portalOf(c);
    requireRole(p, 'admin');
    return c.json({ data: await listInvitations(deps, p) }, 200);
  });
  router.openapi(routes.changeRole, async (c) => {
    await changeMemberRole(deps, portalOf(c), c.req.valid('param').id, c.req.valid('json').role);
    return c.json({ changed: true }, 200);
  });
  router.openapi(routes.removeMember, async (c) => {
    await removeMember(deps, portalOf(c), c.req.valid('param').id);
    return c.json({ removed: true }, 200);
  });
}
