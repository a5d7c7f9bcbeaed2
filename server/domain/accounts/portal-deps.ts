import type { Logger } from 'pino';
import type { Mailer } from '../../mail/mailer.ts';
import type { LicensingDeps } from '../deps.ts';

/**
 * What the portal's account functions (sign-in, members, invitations, settings) need beyond
 * licensing: mail, the public URLs, a logger. The pages' extra needs (leads, webhooks, billing) are
 * `PortalAppDeps` in domain/portal/, a subject above this one.
 */
export interface PortalDeps extends LicensingDeps {
  mailer: Mailer;
  /** `MAIL_FROM`: the sender of sign-in and invite mails. */
  mailFrom: string;
  /** `PUBLIC_PORTAL_URL`: the origin the portal is served from (also WebAuthn's origin). */
  portalUrl: string;
  /** The API's embed host, for snippets and the live preview. */
  embedUrl: string;
  /** `PUBLIC_API_URL`, for the MCP and REST snippets. */
  apiUrl: string;
  logger: Logger;
  /**
   * Ends the MCP grants a person approved in a firm, when they are removed or made a viewer (a grant
   * lives only while its approver may approve). OAuth's `endGrants`, handed in by the composition:
   * OAuth builds on accounts, not the reverse.
   */
  endApproverGrants: (
    where: { accountId: string; approverUserId: string },
    reason: string,
    actor: string,
  ) => Promise<unknown>;
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
