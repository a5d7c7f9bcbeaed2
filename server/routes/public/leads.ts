import { createRoute, z } from '@hono/zod-openapi';
import { LeadResultSchema, LeadSchema, LeadStatusSchema, LostReasonSchema } from '../../contracts/lead.ts';
import { requireScope } from '../../domain/credentials/scopes.ts';
import type { LicensingDeps } from '../../domain/deps.ts';
import {
  actorOfPrincipal,
  changeLeadStatus,
  findLeadView,
  releaseQuarantinedLead,
  submitLead,
  toLeadView,
} from '../../domain/leads/intake.ts';
import { addLeadNote, listLeadNotes, NOTE_MAX } from '../../domain/leads/lead-notes.ts';
import {
  countHiddenTestLeads,
  findLeads,
  nextCursorOf,
  type QueryDeps,
} from '../../domain/leads/lead-query.ts';
import { findResultView } from '../../domain/leads/lead-result.ts';
import { requireCredential } from '../../http/auth/auth.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { networkOf } from '../../http/requests/client-ip.ts';
import {
  bearerSecurity,
  errorResponses,
  Iso,
  jsonBody,
  jsonResponse,
  LanguageField,
  PageField,
} from '../schemas.ts';

const tags = ['Leads'];
const Status = LeadStatusSchema;

const LeadCreatedSchema = z
  .object({ leadId: z.string(), status: Status, createdAt: Iso })
  .openapi('LeadCreated');

const create = createRoute({
  method: 'post',
  path: '/api/leads',
  tags,
  summary: 'Submit a lead from the widget (embed token; Idempotency-Key required)',
  description:
    'What the widget sends when a visitor asks to be contacted. The consent text stored is the firm’s version the widget showed (`consentVersionId`), never text from the client. A retry with the same `Idempotency-Key` and body answers the stored lead (`Idempotent-Replayed: true`); the same key with another body is 409. Leads with spam signals are stored but held (`quarantined`).',
  security: bearerSecurity,
  request: {
    headers: z.object({
      'idempotency-key': z
        .string()
        .min(8)
        .max(255)
        .openapi({ description: 'Unique per lead submission; retries reuse it' }),
    }),
    ...jsonBody(
      z.object({
        resultId: z.string().max(64).optional(),
        calculator: z.string().min(1).max(64),
        name: z.string().trim().min(1).max(200),
        email: z.email().max(254),
        phone: z
          .string()
          .trim()
          .regex(/^[+0-9 ().-]{7,25}$/, 'Expected a phone number')
          .optional(),
        state: z.string().regex(/^[A-Z]{2}$/, 'Expected a two-letter state code'),
        consent: z.literal(true, { error: 'The visitor must consent to be contacted' }),
        consentVersionId: z.string().min(1).max(64).optional().openapi({
          description:
            'The consent version the widget showed (`consent.versionId` of its embed session). Without it the version in force is stored, marked `assumed`',
        }),
        consentText: z.string().trim().max(2000).optional().openapi({
          description: 'Ignored: consent text is taken from the named consent version, never from the client',
        }),
        website: z.string().max(500).optional().openapi({ description: 'Honeypot: leave empty' }),
        page: PageField,
        language: LanguageField,
        altcha: z.string().max(2000).optional().openapi({
          description:
            'Proof of work: base64 JSON of a solved POST /leads/challenge (not part of the idempotency hash)',
        }),
      }),
      {
        resultId: 'res_01J9ZK6V3Q8X',
        calculator: 'estate-tax',
        name: 'Ada Byron',
        email: 'ada@example.com',
        phone: '+1 212 555 0142',
        state: 'NY',
        consent: true,
        consentVersionId: 'cv_01J9ZK2M4T7R',
        page: 'https://smithlaw.com/estate-planning',
      },
    ),
  },
  responses: {
    201: jsonResponse('Stored (or replayed for the same key)', LeadCreatedSchema),
    ...errorResponses(400, 401, 409),
  },
});

const resultDetail = createRoute({
  method: 'get',
  path: '/api/results/{id}',
  tags,
  summary: 'One calculation result of the firm as data (leads:read)',
  description:
    'The result a lead’s `result.id` (or a `result.created` webhook) names: calculator, state, the visitor’s inputs, the outputs and the headline figure. Another firm’s result id is 404, as is an unknown one.',
  security: bearerSecurity,
  request: { params: z.object({ id: z.string().min(1).max(64) }) },
  responses: {
    200: jsonResponse(
      'The result',
      LeadResultSchema.extend({ test: z.boolean(), createdAt: Iso }).openapi('Result'),
    ),
    ...errorResponses(401, 403, 404),
  },
});

const list = createRoute({
  method: 'get',
  path: '/api/leads',
  tags,
  summary: 'The firm’s leads, newest first (admin credential)',
  description:
    'A page of the firm’s leads (API key with `leads:read`, or an admin access token), filtered by status, calculator, state, language, creation time or month and the start of a name or e-mail (`q`), sorted by `sort`. Pass `nextCursor` back as `cursor` with the same filters for the next page. Test-mode leads are left out unless `includeTest=true`; `hiddenTest` says how many.',
  security: bearerSecurity,
  request: {
    query: z.object({
      limit: z.coerce.number().int().min(1).max(200).default(50),
      status: Status.optional(),
      calculator: z.string().min(1).max(64).optional().openapi({ description: 'Calculator slug' }),
      state: z.string().min(1).max(8).optional().openapi({ description: 'Two-letter state code' }),
      language: z
        .enum(['en', 'es'])
        .optional()
        .openapi({ description: 'The language the visitor used the widget in' }),
      createdFrom: z
        .string()
        .max(40)
        .optional()
        .openapi({ description: 'ISO date or date-time, UTC, inclusive' }),
      createdTo: z
        .string()
        .max(40)
        .optional()
        .openapi({ description: 'ISO date or date-time, UTC, exclusive' }),
      month: z
        .string()
        .max(7)
        .optional()
        .openapi({ description: 'A calendar month, YYYY-MM (UTC), instead of createdFrom/createdTo' }),
      q: z
        .string()
        .max(100)
        .optional()
        .openapi({ description: 'The start of a name or e-mail address, case-insensitive' }),
      sort: z.enum(['received', 'value', 'priority']).optional().openapi({
        description:
          '`received` (newest first, the default), `value` or `priority` (highest first, newest first among equals; leads not rated last)',
      }),
      includeTest: z
        .enum(['true', 'false'])
        .optional()
        .openapi({ description: 'Include test-mode leads (default false)' }),
      cursor: z
        .string()
        .max(1000)
        .optional()
        .openapi({ description: 'nextCursor of the previous page (signed; same filters)' }),
    }),
  },
  responses: {
    200: jsonResponse(
      'A page of leads',
      z.object({
        data: z.array(LeadSchema),
        nextCursor: z.string().nullable(),
        totalMatching: z.number().int().openapi({ description: 'Leads matching, exact up to 1,000' }),
        totalMatchingCapped: z.boolean().openapi({ description: 'More than 1,000 match' }),
        hiddenTest: z
          .number()
          .int()
          .openapi({ description: 'Test-mode leads left out (0 with includeTest=true)' }),
      }),
    ),
    ...errorResponses(400, 401, 403),
  },
});

const detail = createRoute({
  method: 'get',
  path: '/api/leads/{id}',
  tags,
  summary: 'One lead of the firm, test and quarantined ones too (leads:read)',
  description:
    'The lead with its consent record and the calculation behind it. Another firm’s lead id is 404, as is an unknown one.',
  security: bearerSecurity,
  request: { params: z.object({ id: z.string().min(1).max(64) }) },
  responses: { 200: jsonResponse('The lead', LeadSchema), ...errorResponses(401, 403, 404) },
});

const patch = createRoute({
  method: 'patch',
  path: '/api/leads/{id}',
  tags,
  summary: 'Move a lead along new → contacted → converted, or to lost with a reason (admin credential)',
  description:
    'Sets the lead’s status (`leads:write`): new → contacted → converted, new → converted, new or contacted → lost (with `lostReason`), lost → contacted. A move the lead’s current status does not allow is 409 `INVALID_TRANSITION`; `lost` without `lostReason` (or a reason with another status) is 400. The change is audited and sent to webhooks subscribed to `lead.updated`, whose data is the lead plus `previousStatus`.',
  security: bearerSecurity,
  request: {
    params: z.object({ id: z.string().min(1).max(64) }),
    ...jsonBody(z.object({ status: Status, lostReason: LostReasonSchema.optional() }), {
      status: 'lost',
      lostReason: 'went_elsewhere',
    }),
  },
  responses: { 200: jsonResponse('The lead', LeadSchema), ...errorResponses(400, 401, 403, 404, 409) },
});

const NoteSchema = z
  .object({ id: z.string(), author: z.string(), text: z.string(), createdAt: Iso })
  .openapi('LeadNote');

const notes = createRoute({
  method: 'get',
  path: '/api/leads/{id}/notes',
  tags,
  summary: 'The lead’s notes, oldest first (leads:read)',
  description:
    'Every note written on the lead in the portal or over this API, oldest first: its text, its author (a portal user or an API key) and when. Another firm’s lead is 404 like an unknown one.',
  security: bearerSecurity,
  request: { params: z.object({ id: z.string().min(1).max(64) }) },
  responses: {
    200: jsonResponse('The notes', z.object({ data: z.array(NoteSchema) })),
    ...errorResponses(401, 403, 404),
  },
});

const addNote = createRoute({
  method: 'post',
  path: '/api/leads/{id}/notes',
  tags,
  summary: 'Write a note on the lead (leads:write; audited)',
  description:
    'A note of up to 4,000 characters ("left a voicemail Tuesday"), with its author (the credential) and time. The activity trail records that a note was written, not its text.',
  security: bearerSecurity,
  request: {
    params: z.object({ id: z.string().min(1).max(64) }),
    ...jsonBody(z.object({ text: z.string().min(1).max(NOTE_MAX) }), { text: 'Left a voicemail Tuesday.' }),
  },
  responses: { 201: jsonResponse('The note', NoteSchema), ...errorResponses(400, 401, 403, 404) },
});

const release = createRoute({
  method: 'post',
  path: '/api/leads/{id}/release',
  tags,
  summary: 'Release a quarantined lead (held for spam signals) into the usual flow (leads:write)',
  description:
    'A held lead is kept out of alerts and webhooks. Releasing it clears the hold: its `lead.created` webhooks and alert mail go now, as if it had arrived live. A lead that is not held is 404.',
  security: bearerSecurity,
  request: { params: z.object({ id: z.string().min(1).max(64) }) },
  responses: { 200: jsonResponse('The lead', LeadSchema), ...errorResponses(401, 403, 404) },
});

export function createLeadRoutes(deps: LicensingDeps, queries: QueryDeps) {
  const router = createRouter();
  router.on(['POST'], create.path, requireCredential(deps, ['embed']));
  router.openapi(create, async (c) => {
    const principal = c.get('principal');
    if (principal?.kind !== 'embed') throw new Error('unreachable');
    const key = c.req.valid('header')['idempotency-key'];
    const source = { sourceNet: networkOf(c.get('clientIp')) };
    const stored = await submitLead(deps, principal, key, c.req.valid('json'), source);
    if (stored.replayed) c.header('Idempotent-Replayed', 'true');
    // A replay answers the body stored with the key: this route's own first answer, kept as JSON.
    return c.json(stored.body as z.infer<typeof LeadCreatedSchema>, 201);
  });
  const admin = requireCredential(deps, ['access', 'apikey']);
  router.on(['GET'], list.path, admin);
  router.on(['GET'], '/api/leads/:id', admin);
  router.on(['GET'], '/api/results/:id', admin);
  router.on(['PATCH'], '/api/leads/:id', admin);
  router.on(['POST'], '/api/leads/:id/release', admin);
  router.on(['GET', 'POST'], '/api/leads/:id/notes', admin);
  router.openapi(list, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'leads:read');
    const { limit, cursor, includeTest, ...filters } = c.req.valid('query');
    const page = await findLeads(
      queries,
      principal.accountId,
      { ...filters, includeTest: includeTest === 'true' },
      { limit, ...(cursor ? { cursor } : {}) },
    );
    // Test-mode leads are left out unless asked for; say how many, so nobody wonders where they went.
    const hiddenTest =
      includeTest === 'true' ? 0 : await countHiddenTestLeads(deps, principal.accountId, filters.status);
    return c.json(
      {
        data: page.rows.map(toLeadView),
        nextCursor: nextCursorOf(page, page.rows.length) ?? null,
        totalMatching: page.totalMatching,
        totalMatchingCapped: page.totalMatchingCapped,
        hiddenTest,
      },
      200,
    );
  });
  router.openapi(detail, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'leads:read');
    return c.json(await findLeadView(deps.db, principal.accountId, c.req.valid('param').id), 200);
  });
  router.openapi(resultDetail, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'leads:read');
    return c.json(await findResultView(deps.db, principal.accountId, c.req.valid('param').id), 200);
  });
  router.openapi(patch, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'leads:write');
    return c.json(
      await changeLeadStatus(
        deps,
        principal.accountId,
        c.req.valid('param').id,
        c.req.valid('json').status,
        actorOfPrincipal(principal),
        c.req.valid('json').lostReason,
      ),
      200,
    );
  });
  router.openapi(notes, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'leads:read');
    return c.json({ data: await listLeadNotes(deps, principal.accountId, c.req.valid('param').id) }, 200);
  });
  router.openapi(addNote, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'leads:write');
    const id = c.req.valid('param').id;
    const note = await addLeadNote(
      deps,
      principal.accountId,
      id,
      c.req.valid('json').text,
      actorOfPrincipal(principal),
    );
    return c.json(note, 201);
  });
  router.openapi(release, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'leads:write');
    return c.json(
      await releaseQuarantinedLead(
        deps,
        principal.accountId,
        c.req.valid('param').id,
        actorOfPrincipal(principal),
      ),
      200,
    );
  });
  return router;
}
