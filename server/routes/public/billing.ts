import { createRoute, z } from '@hono/zod-openapi';
import { renderBillingPage } from '../../domain/billing/billing-page.ts';
import { type BillingDeps, createBillingPortalUrl } from '../../domain/billing/billing-portal.ts';
import { CheckoutSchema, createCheckoutUrl } from '../../domain/billing/checkout.ts';
import { requireScope } from '../../domain/credentials/scopes.ts';
import type { LicensingDeps } from '../../domain/deps.ts';
import { requireCredential } from '../../http/auth/auth.ts';
import { createRouter } from '../../http/openapi-router.ts';
import { bearerSecurity, errorResponses, jsonBody, jsonResponse } from '../schemas.ts';

const portal = createRoute({
  method: 'post',
  path: '/api/billing/customer-portal',
  tags: ['Billing'],
  summary: 'A billing-portal URL for the firm (admin credential)',
  description:
    'For an admin access token or an API key with the `billing` scope: a short-lived URL of the Stripe customer portal for the firm’s subscription (or the built-in billing page when Stripe is not configured). Send the firm admin there; they come back to `returnUrl`.',
  security: bearerSecurity,
  request: jsonBody(
    z.object({
      returnUrl: z
        .url({ protocol: /^https?$/ })
        .max(2000)
        .optional(),
    }),
    { returnUrl: 'https://smithlaw.com/wp-admin/admin.php?page=svc' },
  ),
  responses: {
    200: jsonResponse(
      'Where to send the firm admin',
      z.object({ url: z.string(), expiresAt: z.string().optional() }),
    ),
    ...errorResponses(400, 401, 403),
  },
});

const checkout = createRoute({
  method: 'post',
  path: '/api/billing/checkout',
  tags: ['Billing'],
  summary: 'A Stripe Checkout URL that starts a subscription for a license (admin credential)',
  description:
    'The price is the active Stripe price whose lookup key is the plan name. Without Stripe configured the answer is 501 `BILLING_NOT_CONFIGURED`.',
  security: bearerSecurity,
  request: jsonBody(CheckoutSchema, {
    plan: 'pro',
    quantity: 2,
    successUrl: 'https://smithlaw.com/wp-admin/admin.php?page=svc&billing=done',
    cancelUrl: 'https://smithlaw.com/wp-admin/admin.php?page=svc',
  }),
  responses: {
    200: jsonResponse('Where to send the firm admin', z.object({ url: z.string(), id: z.string() })),
    ...errorResponses(400, 401, 403, 404, 501, 503),
  },
});

export function createBillingRoutes(deps: LicensingDeps, billing: BillingDeps) {
  const router = createRouter();
  router.use(portal.path, requireCredential(deps, ['access', 'apikey']));
  router.openapi(portal, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'billing');
    c.header('Cache-Control', 'no-store');
    return c.json(await createBillingPortalUrl(billing, principal, c.req.valid('json').returnUrl), 200);
  });
  router.use(checkout.path, requireCredential(deps, ['access', 'apikey']));
  router.openapi(checkout, async (c) => {
    const principal = c.get('principal')!;
    requireScope(principal, 'billing');
    c.header('Cache-Control', 'no-store');
    return c.json(await createCheckoutUrl(billing, principal, c.req.valid('json')), 200);
  });
  return router;
}

/** The built-in billing page, outside /v1 (a page for people, reached through a signed link). */
export function createBillingPageRoutes(billing: BillingDeps) {
  const router = createRouter();
  router.get('/billing/portal', async (c) => {
    const html = await renderBillingPage(billing, c.req.query('token') ?? '');
    c.header('Cache-Control', 'no-store');
    c.header('Referrer-Policy', 'no-referrer');
    c.header(
      'Content-Security-Policy',
      "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'",
    );
    return c.html(html);
  });
  return router;
}
