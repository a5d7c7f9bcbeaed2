import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { actingAs, actorOf, type PortalDeps } from '../../domain/accounts/portal-deps.ts';
import { createBillingPortalUrl } from '../../domain/billing/billing-portal.ts';
import { createCheckoutUrl } from '../../domain/billing/checkout.ts';
import { DEFAULT_KEY_OVERLAP_MS, rollLicenseKey } from '../../domain/licensing/keys.ts';
import { releaseSeat, updateLicense } from '../../domain/licensing/lifecycle.ts';
import { DEFAULT_PLANS } from '../../domain/licensing/plans.ts';
import { billingOptions } from '../../domain/portal/firm-views.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { errorResponses, jsonBody, jsonResponse, overlapSeconds } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, IdParam, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;
const DomainList = z.array(z.string().min(1).max(253)).max(100);

const routes = {
  billingOptions: createRoute({
    method: 'get',
    path: '/portal/billing',
    tags,
    security,
    middleware: anyMember,
    summary: 'Whether Stripe Checkout is available, and the plans a firm can buy',
    responses: portalOk('Billing options', A.BillingOptions),
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
  billingPortal: createRoute({
    method: 'post',
    path: '/portal/billing/portal',
    tags,
    security,
    middleware: adminOnly,
    summary: 'A billing-portal URL (Stripe, or the built-in page without Stripe); back to Licenses after',
    responses: portalOk('Where to send the browser', A.BrowserTo),
  }),
  checkout: createRoute({
    method: 'post',
    path: '/portal/billing/checkout',
    tags,
    security,
    middleware: adminOnly,
    summary: 'A Stripe Checkout URL that starts a subscription for one license',
    request: jsonBody(
      z
        .object({
          licenseId: z.string().min(1).max(64),
          plan: z.string().min(1).max(40),
          quantity: z.number().int().min(1).max(10_000).optional(),
        })
        .strict(),
    ),
    responses: {
      200: jsonResponse('Where to send the browser', A.CheckoutTo),
      ...errorResponses(400, 401, 403, 404, 501, 503),
    },
  }),
};

/**
 * Licenses page changes: the license-lifecycle and billing functions the operator's CLI and the
 * REST billing routes use, scoped to the session's firm (another firm's license or activation is
 * NOT_FOUND) and audited as the user.
 */
export function registerPortalLifecycleRoutes(router: OpenAPIHono<AppEnv>, deps: PortalDeps) {
  const back = (query = '') => `${deps.portalUrl}/portal/licenses${query}`;
  const lifecycle = { ...deps, plans: deps.plans ?? DEFAULT_PLANS };
  router.openapi(routes.billingOptions, (c) => c.json(billingOptions(deps), 200));
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
  router.openapi(routes.billingPortal, async (c) => {
    c.header('Cache-Control', 'no-store');
    return c.json(await createBillingPortalUrl(deps.billing, portalOf(c), back()), 200);
  });
  router.openapi(routes.checkout, async (c) => {
    c.header('Cache-Control', 'no-store');
    // The return addresses are the portal's own: a session cannot be used to bounce elsewhere.
    const input = {
      ...c.req.valid('json'),
      successUrl: back('?checkout=done'),
      cancelUrl: back('?checkout=cancelled'),
    };
    return c.json(await createCheckoutUrl(deps.billing, portalOf(c), input), 200);
  });
}
