import type { LeadStatus } from '../../db/leads-repo.ts';
import { createApiKey, revokeApiKey } from '../accounts/api-keys.ts';
import type { PortalDeps, PortalPrincipal } from '../accounts/portal-deps.ts';
import { requireRole } from '../accounts/roles.ts';
import type { ApiKeyScope } from '../credentials/scopes.ts';
import { changeLeadStatus } from '../leads/intake.ts';

/** How a portal user appears in the audit trail (the Activity page shows the address). */
export const actorOf = (p: PortalPrincipal) => `user:${p.email}`;

/**
 * Settings → API keys → Create. Admins and owners only. The key is returned here once and stored
 * as an HMAC; the audit trail names who created it and with which scopes.
 */
export async function createFirmApiKey(
  deps: PortalDeps,
  principal: PortalPrincipal,
  input: { name: string; scopes: ApiKeyScope[] },
) {
  requireRole(principal, 'admin');
  const { apiKey, row } = await createApiKey(
    deps,
    {
      accountId: principal.accountId,
      name: input.name,
      scopes: input.scopes,
      createdBy: principal.userId,
    },
    actorOf(principal),
  );
  return { apiKey, id: row.id, name: row.name, last4: row.keyLast4, scopes: input.scopes };
}

/** Revocation is immediate: the next request with the key (REST or MCP) is refused. */
export async function revokeFirmApiKey(deps: PortalDeps, principal: PortalPrincipal, keyId: string) {
  requireRole(principal, 'admin');
  // NOT_FOUND for an unknown, foreign or already revoked key.
  await revokeApiKey(deps, principal.accountId, keyId, actorOf(principal));
}

/** A lead moves along the allowed transitions only (see `changeLeadStatus`); viewers cannot. */
export async function changeFirmLeadStatus(
  deps: PortalDeps,
  principal: PortalPrincipal,
  leadId: string,
  status: LeadStatus,
) {
  requireRole(principal, 'admin');
  return changeLeadStatus(deps, principal.accountId, leadId, status, actorOf(principal));
}
