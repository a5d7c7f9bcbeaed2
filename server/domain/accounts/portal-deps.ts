import type { Logger } from 'pino';
import type { Mailer } from '../../mail/mailer.ts';
import type { BillingDeps } from '../billing/billing-portal.ts';
import type { DeliveryDeps } from '../delivery/deps.ts';
import type { LicensingDeps } from '../deps.ts';
import type { QueryDeps } from '../leads/lead-query.ts';

/** What the portal's domain functions need beyond licensing: mail, its own public URL, a logger. */
export interface PortalDeps extends LicensingDeps {
  mailer: Mailer;
  /** `MAIL_FROM`: the sender of sign-in and invite mails. */
  mailFrom: string;
  /** The shared lead query module (signed cursors), as the REST list and MCP use it. */
  queries: QueryDeps;
  /** `PUBLIC_PORTAL_URL`: the origin the portal is served from (also WebAuthn's origin). */
  portalUrl: string;
  /** The API's embed host, for snippets and the live preview. */
  embedUrl: string;
  /** `PUBLIC_API_URL`, for the MCP and REST snippets. */
  apiUrl: string;
  logger: Logger;
  /** Webhook endpoints and deliveries (Settings → Webhooks), the same deps the admin routes use. */
  delivery: DeliveryDeps;
  /** Billing portal and Stripe Checkout (Licenses page), the same deps the REST billing routes use. */
  billing: BillingDeps;
}

/** The signed-in person acting in one firm: every portal query is scoped by `accountId`. */
export interface PortalPrincipal {
  sessionId: string;
  userId: string;
  email: string;
  accountId: string;
  role: 'owner' | 'admin' | 'viewer';
}

/** How a portal user appears in the audit trail (the Activity page shows the address). */
export const actorOf = (p: PortalPrincipal) => `user:${p.email}`;

/**
 * A portal user's write: audited as them and confined to their firm, so another firm's ids are
 * answered like unknown ones (the domain's `ActingAs`).
 */
export const actingAs = (p: PortalPrincipal) => ({ actor: actorOf(p), accountId: p.accountId });

/** Sign-in and invite links: short-lived, single use. */
export const SIGN_IN_LINK_TTL_MS = 15 * 60_000;
export const INVITE_LINK_TTL_MS = 72 * 3_600_000;
/** A portal session lives this long after sign-in; it can be revoked at any moment before. */
export const SESSION_TTL_MS = 12 * 3_600_000;

export const normalizeEmail = (email: string) => email.trim().toLowerCase();
