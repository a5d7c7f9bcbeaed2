import { createRoute, type OpenAPIHono, z } from '@hono/zod-openapi';
import { createBillingPortalUrl } from '../../domain/billing/billing-portal.ts';
import { createCheckoutUrl } from '../../domain/billing/checkout.ts';
import type { PortalAppDeps } from '../../domain/portal/deps.ts';
import { billingOptions } from '../../domain/portal/firm-views.ts';
import type { AppEnv } from '../../http/app-env.ts';
import { portalOf } from '../../http/auth/portal-session.ts';
import { errorResponses, jsonBody, jsonResponse } from '../schemas.ts';
import * as A from './answers.ts';
import { adminOnly, anyMember, portalOk, portalSecurity } from './schemas.ts';

const tags = ['Portal'];
const security = portalSecurity;

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
 * Billing from the Licenses page: the plans on offer and the way to Stripe's billing portal or
 * Checkout, scoped to the session's firm; the return addresses are the portal's own.
 */
export function registerPortalBillingRoutes(router: OpenAPIHono<AppEnv>, deps: PortalAppDeps) {
  const back = (query = '') => `${deps.portalUrl}/portal/licenses${query}`;
  router.openapi(routes.billingOptions, (c) => c.json(billingOptions(deps), 200));
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
