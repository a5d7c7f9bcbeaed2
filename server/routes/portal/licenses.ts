import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actingAs, actorOf } from '../../domain/accounts/portal-deps.ts';
import { DEFAULT_KEY_OVERLAP_MS, rollLicenseKey } from '../../domain/licensing/keys.ts';
import { releaseSeat, updateLicense } from '../../domain/licensing/lifecycle.ts';
import { DEFAULT_PLANS } from '../../domain/licensing/plans.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { firmLicense, listFirmLicenses } from '../../domain/portal/firm-views.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { jsonBody, overlapSeconds } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, IdParam, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;
const DomainList = z.array(z.string().min(1).max(253)).max(100);

const routes = {
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
  domains: createRoute({
    method: 'post',
    path: '/portal/licenses/{id}/domains',
    tags,
    security,
    middleware: adminOnly,
    summary: 'Add or remove allowed domains (admin or owner)',
    description:
      'Entries are normalised as activation normalises them (`https://WWW.Bücher.example:8443/x` → `xn--bcher-kva.example`); removing one ends the sites it no longer covers on their next request.',
    request: {
      params: IdParam,
      ...jsonBody(
        z
          .object({ addDomains: DomainList.optional(), removeDomains: DomainList.optional() })
          .strict()
          .refine((v) => (v.addDomains?.length ?? 0) + (v.removeDomains?.length ?? 0) > 0, {
            message: 'Give addDomains or removeDomains',
          }),
      ),
    },
    responses: portalOk('The license after the change', A.ChangedLicense, 400, 404),
  }),
  release: createRoute({
    method: 'post',
    path: '/portal/activations/{id}/release',
    tags,
    security,
    middleware: adminOnly,
    summary: "Release a site's seat (admin or owner); its tokens stop on their next request",
    request: { params: IdParam },
    responses: portalOk('The released activation and its license', A.ReleasedSeat, 404),
  }),
  rollKey: createRoute({
    method: 'post',
    path: '/portal/licenses/{id}/roll-key',
    tags,
    security,
    middleware: adminOnly,
    summary: 'A new publishable or secret key, in this response only; the old one works for the overlap',
    request: {
      params: IdParam,
      ...jsonBody(
        z
          .object({
            kind: z.enum(['publishable', 'secret']),
            overlapSeconds: overlapSeconds('How long the old key keeps working (default 24 h; 0 = ends now)'),
          })
          .strict(),
      ),
    },
    responses: portalOk('The new key and when the old one ends', A.RolledKey, 400, 404),
  }),
};

/**
 * The Licenses page: the firm's licenses and their sites, and the changes a firm makes itself
 * (domains, releasing a site's seat, rolling a key) with the license-lifecycle functions the
 * operator's CLI uses, scoped to the session's firm (another firm's license or activation is
 * NOT_FOUND) and audited as the user.
 */
export function registerPortalLicenseRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  const lifecycle = { ...deps, plans: deps.plans ?? DEFAULT_PLANS };
  router.openapi(routes.licenses, async (c) =>
    c.json({ data: await listFirmLicenses(deps, portalOf(c)) }, 200),
  );
  router.openapi(routes.license, async (c) =>
    c.json({ license: await firmLicense(deps, portalOf(c), c.req.valid('param').id) }, 200),
  );
  // Only the domains change here (seats, plan and dates move with billing); entries are normalised
  // as activation normalises them, and removing one ends the sites it no longer covers.
  router.openapi(routes.domains, async (c) => {
    const { addDomains, removeDomains } = c.req.valid('json');
    const change = { ...(addDomains ? { addDomains } : {}), ...(removeDomains ? { removeDomains } : {}) };
    const as = actingAs(portalOf(c));
    return c.json(await updateLicense(lifecycle, c.req.valid('param').id, change, as), 200);
  });
  // The site's tokens stop on their next request; its seat is free at once.
  router.openapi(routes.release, async (c) =>
    c.json(await releaseSeat(deps, c.req.valid('param').id, actingAs(portalOf(c))), 200),
  );
  router.openapi(routes.rollKey, async (c) => {
    const p = portalOf(c);
    const { kind, overlapSeconds } = c.req.valid('json');
    c.header('Cache-Control', 'no-store');
    const rolled = await rollLicenseKey(deps, {
      licenseId: c.req.valid('param').id,
      kind,
      overlapMs: overlapSeconds === undefined ? DEFAULT_KEY_OVERLAP_MS : overlapSeconds * 1000,
      actor: actorOf(p),
      accountId: p.accountId,
    });
    return c.json(rolled, 200);
  });
}
