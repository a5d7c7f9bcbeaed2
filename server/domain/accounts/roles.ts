import { AppError } from '../../lib/errors.ts';
import type { PortalPrincipal } from './portal-deps.ts';

const RANK = { viewer: 0, admin: 1, owner: 2 } as const;
/** A firm member's role, lowest first: viewers read, admins change, owners also manage owners. */
export type PortalRole = keyof typeof RANK;

/**
 * Owners manage everything including other owners; admins manage keys, licenses, leads and
 * members; viewers read. A missing role is 403 FORBIDDEN naming what is needed.
 */
export function requireRole(principal: PortalPrincipal, role: 'admin' | 'owner', message?: string): void {
  if (RANK[principal.role] < RANK[role])
    throw new AppError(
      'FORBIDDEN',
      message ?? `This needs the ${role} role; viewers can look but not change.`,
    );
}
