import type { PortalDeps } from '../accounts/portal-deps.ts';
import type { BillingDeps } from '../billing/billing-portal.ts';
import type { DeliveryDeps } from '../delivery/deps.ts';
import type { QueryDeps } from '../leads/lead-query.ts';

/** What the portal's pages need beyond its accounts' functions: leads, webhooks and billing. */
export interface PortalAppDeps extends PortalDeps {
  /** The shared lead query module (signed cursors), as the REST list and MCP use it. */
  queries: QueryDeps;
  /** Webhook endpoints and deliveries (Settings → Webhooks), the same deps the admin routes use. */
  delivery: DeliveryDeps;
  /** Billing portal and Stripe Checkout (Licenses page), the same deps the REST billing routes use. */
  billing: BillingDeps;
}
