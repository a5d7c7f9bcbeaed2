import type { Db } from '../../db/engine/database.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import {
  findGrantWithApproverRole,
  listLiveGrantsOfAccount,
  type McpGrantRow,
  revokeGrants,
  touchGrant,
} from '../../db/repos/mcp-oauth-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { PortalPrincipal } from '../accounts/portal-deps.ts';
import { cachedLookup } from '../caches/cached-lookups.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import type { LicensingDeps } from '../deps.ts';

export type GrantWithRole = McpGrantRow & { approverRole: string | null };

/** A grant is live while not revoked and its approver is still an owner or admin of its firm. */
export const isGrantLive = (g: GrantWithRole) =>
  g.revokedAt === null && (g.approverRole === 'owner' || g.approverRole === 'admin');

/** The grant behind an MCP token, through the lookup caches (every revoking write invalidates). */
export const cachedGrant = (deps: LicensingDeps, grantId: string) =>
  cachedLookup(deps, 'mcp-grant', grantId, () => findGrantWithApproverRole(deps.db, grantId));

/** "Last used" for people: one write a minute at most, written into the cached row too. */
export async function touchGrantThrottled(deps: LicensingDeps, grant: GrantWithRole): Promise<void> {
  const now = deps.clock.now();
  if (grant.lastUsedAt && now.getTime() - grant.lastUsedAt.getTime() <= 60_000) return;
  await touchGrant(deps.db, grant.id, now);
  grant.lastUsedAt = now;
}

/**
 * Ends grants and their refresh tokens, records each in the firm's trail and drops the caches, so
 * their access tokens fail on the next call. `reason` says why (Connected apps and the trail show it).
 */
export async function endGrants(
  deps: LicensingDeps,
  where: { id?: string; accountId: string; approverUserId?: string },
  reason: string,
  actor: string,
  db: Db = deps.db,
): Promise<McpGrantRow[]> {
  const now = deps.clock.now();
  const ended = await revokeGrants(db, where, now, reason);
  for (const grant of ended)
    await recordAudit(db, {
      accountId: grant.accountId,
      actor,
      action: 'mcp_grant.revoked',
      subject: grant.id,
      data: {
        clientId: grant.clientId,
        clientName: grant.clientName,
        redirectHost: grant.redirectHost,
        reason,
      },
      at: now,
    });
  if (ended.length) await invalidateCaches(deps);
  return ended;
}

/** Settings → Connected apps: the firm's live grants with who approved each and when last used. */
export async function listConnectedApps(deps: LicensingDeps, principal: PortalPrincipal) {
  const rows = await listLiveGrantsOfAccount(deps.db, principal.accountId);
  return {
    apps: rows.map(({ grant, email, name }) => ({
      grantId: grant.id,
      clientId: grant.clientId,
      clientName: grant.clientName,
      nameVerified: false,
      kind: grant.clientKind === 'metadata' ? ('metadata-document' as const) : ('dynamic' as const),
      redirectHost: grant.redirectHost,
      approvedBy: { email, name },
      approvedAt: grant.createdAt.toISOString(),
      lastUsedAt: grant.lastUsedAt?.toISOString() ?? null,
      scopes: grant.scopes.split(' ').filter(Boolean),
    })),
  };
}

/** Revoke in the portal: the firm's own live grants only; anything else is "no such app". */
export async function revokeConnectedApp(deps: LicensingDeps, principal: PortalPrincipal, grantId: string) {
  const ended = await endGrants(
    deps,
    { id: grantId, accountId: principal.accountId },
    'revoked_in_portal',
    `user:${principal.email}`,
  );
  if (!ended.length) throw new AppError('NOT_FOUND', 'No such connected app.');
}
