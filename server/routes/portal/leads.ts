import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { LeadStatusSchema, LostReasonSchema } from '../../contracts/lead.ts';
import { actorOf } from '../../domain/accounts/portal-deps.ts';
import { heldLeads } from '../../domain/leads/held-leads.ts';
import { changeLeadStatus, releaseQuarantinedLead } from '../../domain/leads/intake.ts';
import { addLeadNote, listLeadNotes, NOTE_MAX } from '../../domain/leads/lead-notes.ts';
import { deleteLead, exportSubjectOfLead } from '../../domain/leads/privacy.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import {
  type FirmLeadFilter,
  firmLeadDetail,
  hiddenTestLeads,
  pageOfFirmLeads,
} from '../../domain/portal/firm-leads.ts';
import { leadsPerWeek } from '../../domain/portal/lead-chart.ts';
import { leadsCsvStream } from '../../domain/portal/leads-csv.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf, requirePortalRole } from '../../http/auth/portal-session.ts';
import { jsonBody } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, IdParam, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;
const Status = LeadStatusSchema;
const exportRole = requirePortalRole(
  'admin',
  'Exporting leads needs the admin or owner role: the file holds people’s personal data.',
);
const Day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, 'Expected a date like 2026-05-31')
  .openapi({ description: 'A UTC calendar day, inclusive' });

/** The Leads page's filters, the same on the list and its CSV export (and in the page's URL). */
const LeadFilterQuery = z.object({
  status: LeadStatusSchema.optional(),
  calculator: z.string().max(64).optional(),
  state: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'Expected a two-letter state code')
    .optional(),
  language: z.enum(['en', 'es']).optional().openapi({ description: 'The language the visitor used' }),
  from: Day.optional(),
  to: Day.optional(),
  test: z
    .enum(['exclude', 'include'])
    .optional()
    .openapi({ description: 'Test-mode leads (development hosts); left out by default' }),
  quarantined: z
    .enum(['exclude', 'include', 'only'])
    .optional()
    .openapi({ description: 'Leads held as possible spam; left out by default' }),
  q: z.string().max(100).optional().openapi({ description: 'The start of a name or e-mail address' }),
  month: z
    .string()
    .regex(/^\d{4}-\d{2}$/, 'Expected a month like 2026-05')
    .optional()
    .openapi({ description: 'A calendar month (UTC), instead of from/to' }),
  sort: z.enum(['received', 'value', 'priority']).optional(),
});

/** The validated query as the domain's filter. */
function leadFilterOf(q: z.infer<typeof LeadFilterQuery>): FirmLeadFilter {
  return {
    ...(q.status ? { status: q.status } : {}),
    ...(q.calculator ? { calculator: q.calculator } : {}),
    ...(q.state ? { state: q.state } : {}),
    ...(q.language ? { language: q.language } : {}),
    ...(q.from ? { from: q.from } : {}),
    ...(q.to ? { to: q.to } : {}),
    includeTest: q.test === 'include',
    ...(q.quarantined ? { quarantined: q.quarantined } : {}),
    ...(q.q?.trim() ? { q: q.q.trim() } : {}),
    ...(q.month ? { month: q.month } : {}),
    ...(q.sort ? { sort: q.sort } : {}),
  };
}

const routes = {
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
  chart: createRoute({
    method: 'get',
    path: '/portal/leads/chart',
    tags,
    security,
    middleware: anyMember,
    summary:
      'Leads per week and calculator: live leads over the last 90 days, or with the list’s filters what the list shows, over their period',
    request: { query: LeadFilterQuery },
    responses: portalOk('Weeks with counts per calculator', A.LeadChart),
  }),
  held: createRoute({
    method: 'get',
    path: '/portal/leads/held',
    tags,
    security,
    middleware: anyMember,
    summary: 'Leads held as possible spam: the count, by reason, and the newest few (the banner)',
    responses: portalOk('Held leads', A.HeldLeads),
  }),
  detail: createRoute({
    method: 'get',
    path: '/portal/leads/{id}',
    tags,
    security,
    middleware: anyMember,
    summary: 'One lead with its allowed next statuses and its linked result’s figures',
    request: { params: IdParam },
    responses: portalOk('The lead', A.LeadDetail, 404),
  }),
  leadStatus: createRoute({
    method: 'patch',
    path: '/portal/leads/{id}',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Change a lead’s status along the allowed transitions',
    request: {
      params: IdParam,
      ...jsonBody(z.object({ status: Status, lostReason: LostReasonSchema.optional() })),
    },
    responses: portalOk('The lead', A.OneLead, 400, 404, 409),
  }),
  notes: createRoute({
    method: 'get',
    path: '/portal/leads/{id}/notes',
    tags,
    security,
    middleware: anyMember,
    summary: 'The lead’s notes, oldest first',
    request: { params: IdParam },
    responses: portalOk('The notes', A.LeadNotes, 404),
  }),
  addNote: createRoute({
    method: 'post',
    path: '/portal/leads/{id}/notes',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Write a note on the lead (owners and admins; audited)',
    request: { params: IdParam, ...jsonBody(z.object({ text: z.string().min(1).max(NOTE_MAX) })) },
    responses: portalOk('The note', A.OneNote, 400, 404),
  }),
  release: createRoute({
    method: 'post',
    path: '/portal/leads/{id}/release',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Release a lead held as possible spam into the usual flow (alert and webhook go now)',
    request: { params: IdParam },
    responses: portalOk('The released lead', A.OneLead, 404),
  }),
  remove: createRoute({
    method: 'delete',
    path: '/portal/leads/{id}',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Erase this person’s lead and every copy the service holds (result, events, mails)',
    request: { params: IdParam },
    responses: portalOk('What was erased', A.ErasedLead, 404),
  }),
  exportPerson: createRoute({
    method: 'get',
    path: '/portal/leads/{id}/person.json',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Everything held about the person behind this lead (by e-mail address), as JSON',
    request: { params: IdParam },
    responses: portalOk('The data-subject export', A.PersonExport, 404),
  }),
};

/**
 * The Leads pages: the list and its CSV, the chart, leads held as possible spam, one lead, its
 * status, releasing or erasing it and a person's data; scoped by the session's firm. Paths with a
 * fixed last segment (`export.csv`, `chart`, `held`) are registered before `{id}`.
 */
export function registerPortalLeadRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
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
  router.openapi(routes.chart, async (c) =>
    c.json(await leadsPerWeek(deps, portalOf(c), leadFilterOf(c.req.valid('query'))), 200),
  );
  router.openapi(routes.held, async (c) => c.json(await heldLeads(deps, portalOf(c)), 200));
  router.openapi(routes.detail, async (c) =>
    c.json(await firmLeadDetail(deps, portalOf(c), c.req.valid('param').id), 200),
  );
  router.openapi(routes.leadStatus, async (c) => {
    const p = portalOf(c);
    const { status, lostReason } = c.req.valid('json');
    const id = c.req.valid('param').id;
    const lead = await changeLeadStatus(deps, p.accountId, id, status, actorOf(p), lostReason);
    return c.json({ lead }, 200);
  });
  router.openapi(routes.notes, async (c) =>
    c.json({ notes: await listLeadNotes(deps, portalOf(c).accountId, c.req.valid('param').id) }, 200),
  );
  router.openapi(routes.addNote, async (c) => {
    const p = portalOf(c);
    const id = c.req.valid('param').id;
    const note = await addLeadNote(deps, p.accountId, id, c.req.valid('json').text, actorOf(p));
    return c.json({ note }, 200);
  });
  // Into the usual flow, as the REST API and the operator release it: alert mail and webhooks go now.
  router.openapi(routes.release, async (c) => {
    const p = portalOf(c);
    const lead = await releaseQuarantinedLead(deps, p.accountId, c.req.valid('param').id, actorOf(p));
    return c.json({ lead }, 200);
  });
  // The operator's `lead delete`, scoped to the session's firm (another firm's id is NOT_FOUND);
  // the audit entry keeps ids and counts, never the person's data.
  router.openapi(routes.remove, async (c) => {
    const p = portalOf(c);
    const erased = await deleteLead(deps, c.req.valid('param').id, {
      accountId: p.accountId,
      actor: actorOf(p),
    });
    return c.json(erased, 200);
  });
  // A privacy request, so admins and owners only, and audited (the operator's `subject export`).
  router.openapi(routes.exportPerson, async (c) => {
    const p = portalOf(c);
    const id = c.req.valid('param').id;
    const data = await exportSubjectOfLead(deps, p.accountId, id, actorOf(p));
    return c.json(data, 200, {
      'Content-Disposition': `attachment; filename="person-${id.replace(/[^A-Za-z0-9_-]/g, '')}.json"`,
      'Cache-Control': 'no-store',
    });
  });
}
