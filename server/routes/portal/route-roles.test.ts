import type { z } from '@hono/zod-openapi';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorSchema } from '../../contracts/error.ts';
import { newId } from '../../db/engine/ids.ts';
import { listApiKeysByAccount } from '../../db/repos/api-keys-repo.ts';
import { findLead, insertLead } from '../../db/repos/leads-repo.ts';
import { findLicenseById } from '../../db/repos/licenses-repo.ts';
import { listMembers } from '../../db/repos/users-repo.ts';
import { findEndpoint } from '../../db/repos/webhook-endpoints-repo.ts';
import { createEndpoint } from '../../domain/delivery/endpoints.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * Every route under /v1/portal and the role it needs: `public` (no session), `viewer` (any member
 * of the firm), `admin` (admins and owners), `owner`. A route added without a row here, or a row
 * whose route is gone, fails the first test; each row is then proved over HTTP: the level below
 * is refused (401 without a session, 403 for a member with too low a role) in the API's error
 * shape, and the role itself gets past the check (a 2xx, or a 4xx other than 401 and 403 for the
 * made-up ids and empty bodies sent here). Rows are in Hono's path syntax, as `app.routes` lists them.
 * Where the answer is a 200 in JSON, it must be exactly what the route's declared schema describes:
 * parsing it loses no field (zod drops the ones a schema does not name) and fails on none.
 */
type Role = 'public' | 'viewer' | 'admin' | 'owner';
const ROLES: Record<string, Role> = {
  'POST /v1/portal/auth/email': 'public',
  'POST /v1/portal/auth/link': 'public',
  'POST /v1/portal/auth/passkey/options': 'public',
  'POST /v1/portal/auth/passkey/verify': 'public',
  'POST /v1/portal/invitations/lookup': 'public',
  'POST /v1/portal/invitations/accept': 'public',
  'POST /v1/portal/invitations/decline': 'public',

  'GET /v1/portal/session': 'viewer',
  'POST /v1/portal/session/account': 'viewer',
  'GET /v1/portal/sessions': 'viewer',
  'POST /v1/portal/sessions/:id/revoke': 'viewer',
  'GET /v1/portal/passkeys': 'viewer',
  'POST /v1/portal/passkeys/options': 'viewer',
  'POST /v1/portal/passkeys': 'viewer',
  'DELETE /v1/portal/passkeys/:id': 'viewer',
  'GET /v1/portal/overview': 'viewer',
  'GET /v1/portal/funnel': 'viewer',
  'GET /v1/portal/embeds': 'viewer',
  'GET /v1/portal/licenses': 'viewer',
  'GET /v1/portal/licenses/:id': 'viewer',
  'GET /v1/portal/api-keys': 'viewer',
  'GET /v1/portal/leads': 'viewer',
  'GET /v1/portal/leads/chart': 'viewer',
  'GET /v1/portal/leads/held': 'viewer',
  'GET /v1/portal/leads/:id': 'viewer',
  'GET /v1/portal/leads/:id/notes': 'viewer',
  'GET /v1/portal/activity': 'viewer',
  'GET /v1/portal/members': 'viewer',
  'GET /v1/portal/connect': 'viewer',
  'GET /v1/portal/oauth/mcp-consent': 'viewer',
  'POST /v1/portal/oauth/mcp-consent': 'viewer',
  'GET /v1/portal/connected-apps': 'viewer',
  'POST /v1/portal/connect/deny': 'viewer',
  'GET /v1/portal/billing': 'viewer',
  'GET /v1/portal/settings/firm': 'viewer',
  'GET /v1/portal/webhooks': 'viewer',
  'GET /v1/portal/webhooks/:id/deliveries': 'viewer',
  'GET /v1/portal/destinations': 'viewer',
  'GET /v1/portal/rules': 'viewer',
  'GET /v1/portal/rule-notices': 'viewer',

  'POST /v1/portal/api-keys': 'admin',
  'POST /v1/portal/connected-apps/:grantId/revoke': 'admin',
  'POST /v1/portal/api-keys/:id/revoke': 'admin',
  'GET /v1/portal/leads/export.csv': 'admin',
  'PATCH /v1/portal/leads/:id': 'admin',
  'POST /v1/portal/leads/:id/release': 'admin',
  'POST /v1/portal/rule-notices/dismiss': 'admin',
  'POST /v1/portal/leads/:id/notes': 'admin',
  'DELETE /v1/portal/leads/:id': 'admin',
  'GET /v1/portal/leads/:id/person.json': 'admin',
  'POST /v1/portal/members': 'admin',
  'GET /v1/portal/members/invitations': 'admin',
  'PATCH /v1/portal/members/:id': 'admin',
  'DELETE /v1/portal/members/:id': 'admin',
  'POST /v1/portal/connect/approve': 'admin',
  'POST /v1/portal/licenses/:id/domains': 'admin',
  'POST /v1/portal/activations/:id/release': 'admin',
  'POST /v1/portal/licenses/:id/roll-key': 'admin',
  'POST /v1/portal/billing/portal': 'admin',
  'POST /v1/portal/billing/checkout': 'admin',
  'PATCH /v1/portal/settings/firm': 'admin',
  'POST /v1/portal/webhooks': 'admin',
  'PATCH /v1/portal/webhooks/:id': 'admin',
  'DELETE /v1/portal/webhooks/:id': 'admin',
  'POST /v1/portal/webhooks/:id/roll-secret': 'admin',
  'POST /v1/portal/webhooks/:id/test': 'admin',
  'POST /v1/portal/destinations': 'admin',
  'PATCH /v1/portal/destinations/:id': 'admin',
  'DELETE /v1/portal/destinations/:id': 'admin',
  'POST /v1/portal/destinations/:id/roll-credentials': 'admin',
  'POST /v1/portal/destinations/:id/test': 'admin',
  'GET /v1/portal/destinations/:id/deliveries': 'admin',
  'POST /v1/portal/webhook-deliveries/:id/replay': 'admin',

  // Last: it ends the caller's session.
  'POST /v1/portal/session/sign-out': 'viewer',
};

const BELOW: Record<Exclude<Role, 'public'>, 'none' | 'viewer' | 'admin'> = {
  viewer: 'none',
  admin: 'viewer',
  owner: 'admin',
};

let ctx: TestContext;
let accountId: string;
/** Real ids for the reads, so their answers carry data to check against the declared schema. */
const realIds: [RegExp, string][] = [];
beforeAll(async () => {
  ctx = await createTestContext();
  const firm = await ctx.seed.firm();
  accountId = firm.account.id;
  await ctx.seed.apiKey(accountId);
  const at = new Date('2026-02-20T10:00:00Z');
  const lead = (name: string, held: boolean) =>
    insertLead(ctx.database.db, {
      id: newId('lead'),
      accountId,
      calculator: 'estate-tax',
      name,
      email: `${name.split(' ')[0]!.toLowerCase()}@example.com`,
      phone: null,
      state: 'NY',
      status: 'new',
      consentText: 'I agree.',
      consentedAt: at,
      createdAt: at,
      updatedAt: at,
      ...(held ? { quarantinedAt: at, quarantineReasons: ['link_in_name'] } : {}),
    });
  const live = await lead('Ana Route', false);
  await lead('Ben Held', true);
  const { endpoint } = await createEndpoint(ctx.services.portal.delivery, {
    accountId,
    url: 'https://hooks.smithlaw.com/svc',
    events: ['lead.created'],
  });
  realIds.push(
    [/^GET \/v1\/portal\/licenses\//, firm.license.id],
    [/^GET \/v1\/portal\/leads\//, live.id],
    [/^GET \/v1\/portal\/webhooks\//, endpoint.id],
  );
});
afterAll(async () => ctx?.close());

type Caller = Awaited<ReturnType<typeof portalCaller>> | undefined;
const callers = new Map<string, Promise<Caller>>();
/** One signed-in member per role, made on first use (`none` is nobody signed in). */
const callerFor = (role: 'none' | 'viewer' | 'admin' | 'owner') => {
  if (role === 'none') return Promise.resolve(undefined);
  if (!callers.has(role)) callers.set(role, portalCaller(ctx, accountId, role, `route-${role}@firm.example`));
  return callers.get(role)!;
};

/** The route called as `caller` with made-up ids and, for writes, an empty JSON object. */
async function send(caller: Caller, route: string) {
  const [method, template] = route.split(' ') as [string, string];
  const real = realIds.find(([pattern]) => pattern.test(route))?.[1];
  const path = template.replace(/:id/g, real ?? 'no_such_id');
  const origin = ctx.services.config.publicPortalUrl;
  const res = await ctx.app.request(path, {
    method,
    headers: {
      origin,
      ...(caller ? { cookie: caller.cookie, 'x-csrf-token': caller.csrfToken } : {}),
      ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
    },
    ...(method === 'GET' ? {} : { body: '{}' }),
  });
  const text = await res.text();
  const json = res.headers.get('content-type')?.includes('json') ? JSON.parse(text) : undefined;
  return { status: res.status, json };
}

/** The 200 schema a route declares in the API document (registered under its OpenAPI path). */
function declaredAnswer(route: string): z.ZodType | undefined {
  const [method, template] = route.split(' ') as [string, string];
  const path = template.replace(/:(\w+)/g, '{$1}');
  for (const def of ctx.app.openAPIRegistry.definitions) {
    if (def.type !== 'route' || def.route.path !== path || def.route.method !== method.toLowerCase())
      continue;
    const ok = def.route.responses[200] as { content?: Record<string, { schema?: unknown }> } | undefined;
    return ok?.content?.['application/json']?.schema as z.ZodType | undefined;
  }
  return undefined;
}

describe('portal routes and their roles', () => {
  it('the table lists exactly the routes registered under /v1/portal', () => {
    const registered = new Set(
      ctx.app.routes
        .filter((r) => r.method !== 'ALL' && r.path.startsWith('/v1/portal/'))
        .map((r) => `${r.method} ${r.path}`),
    );
    expect([...registered].sort()).toEqual(Object.keys(ROLES).sort());
  });

  it.each(Object.entries(ROLES))('%s needs %s', async (route, role) => {
    if (role !== 'public') {
      const below = BELOW[role];
      const refused = await send(await callerFor(below), route);
      expect(refused.status).toBe(below === 'none' ? 401 : 403);
      expect(ErrorSchema.parse(refused.json).error.code).toBe(
        below === 'none' ? 'UNAUTHORIZED' : 'FORBIDDEN',
      );
    }
    const allowed = await send(await callerFor(role === 'public' ? 'none' : role), route);
    expect(allowed.status, JSON.stringify(allowed.json)).toBeLessThan(500);
    expect([401, 403]).not.toContain(allowed.status);
    if (allowed.status === 200 && allowed.json !== undefined) {
      const schema = declaredAnswer(route);
      expect(schema, 'a declared JSON answer').toBeDefined();
      expect(schema!.parse(allowed.json)).toEqual(allowed.json);
    }
  });
});

describe('another firm’s ids', () => {
  /**
   * Every portal route that takes an id, called by firm A's owner with firm B's ids and a body that
   * would be a valid change (unknown keys are dropped by the schemas): none may succeed, and
   * afterwards firm B's lead, webhook, API key, license and member are exactly as they were.
   */
  it('no route with an :id reaches or changes them', async () => {
    const other = await ctx.seed.firm();
    const b = other.account.id;
    const at = new Date('2026-02-21T10:00:00Z');
    const lead = await insertLead(ctx.database.db, {
      id: newId('lead'),
      accountId: b,
      calculator: 'estate-tax',
      name: 'Cara Other',
      email: 'cara@example.com',
      phone: null,
      state: 'NY',
      status: 'new',
      consentText: 'I agree.',
      consentedAt: at,
      createdAt: at,
      updatedAt: at,
    });
    const { endpoint } = await createEndpoint(ctx.services.portal.delivery, {
      accountId: b,
      url: 'https://hooks.otherfirm.com/svc',
      events: ['lead.created'],
    });
    const { row: key } = await ctx.seed.apiKey(b);
    const member = await portalCaller(ctx, b, 'viewer', 'kept-viewer@otherfirm.example');
    const before = {
      lead: await findLead(ctx.database.db, b, lead.id),
      endpoint: await findEndpoint(ctx.database.db, endpoint.id, b),
      keys: await listApiKeysByAccount(ctx.database.db, b),
      license: await findLicenseById(ctx.database.db, other.license.id),
      members: await listMembers(ctx.database.db, b),
    };
    const idOf = (route: string) =>
      /leads/.test(route)
        ? lead.id
        : /webhook/.test(route)
          ? endpoint.id
          : /api-keys/.test(route)
            ? key.id
            : /members/.test(route)
              ? member.userId
              : other.license.id;
    const owner = (await callerFor('owner'))!;
    const body = JSON.stringify({
      status: 'contacted',
      role: 'viewer',
      domains: ['evil.example'],
      description: 'changed by another firm',
      url: 'https://evil.example/hook',
      events: ['lead.created'],
    });
    const answers: string[] = [];
    for (const route of Object.keys(ROLES).filter((r) => r.includes(':id'))) {
      const [method, template] = route.split(' ') as [string, string];
      const res = await ctx.app.request(template.replace(':id', idOf(route)), {
        method,
        headers: {
          origin: ctx.services.config.publicPortalUrl,
          cookie: owner.cookie,
          'x-csrf-token': owner.csrfToken,
          ...(method === 'GET' ? {} : { 'content-type': 'application/json' }),
        },
        ...(method === 'GET' ? {} : { body }),
      });
      answers.push(`${route} → ${res.status}`);
      expect(res.status, route).toBeGreaterThanOrEqual(400);
      expect(res.status, route).toBeLessThan(500);
    }
    expect(answers.length).toBeGreaterThan(15);
    expect({
      lead: await findLead(ctx.database.db, b, lead.id),
      endpoint: await findEndpoint(ctx.database.db, endpoint.id, b),
      keys: await listApiKeysByAccount(ctx.database.db, b),
      license: await findLicenseById(ctx.database.db, other.license.id),
      members: await listMembers(ctx.database.db, b),
    }).toEqual(before);
  });
});
