import { findLead } from '../../db/leads-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { PortalDeps, PortalPrincipal } from '../accounts/portal-deps.ts';
import { requireRole } from '../accounts/roles.ts';
import { releaseQuarantinedLead } from '../leads/intake.ts';
import { deleteLead, exportSubject } from '../leads/privacy.ts';
import { actorOf } from './firm-actions.ts';

/**
 * Releases an over-quota lead into the usual flow (alert mail and webhooks go now), as the REST
 * API and the operator do it. Admins and owners only.
 */
export async function releaseFirmLead(deps: PortalDeps, principal: PortalPrincipal, leadId: string) {
  requireRole(principal, 'admin');
  return releaseQuarantinedLead(deps, principal.accountId, leadId, actorOf(principal));
}

/**
 * Erases one person's lead and every copy the service holds (result, events, deliveries, alert
 * mails): the same function the operator's `lead delete` runs, scoped to the session's firm so
 * another firm's id is NOT_FOUND. Admins and owners only; the audit entry keeps ids and counts.
 */
export async function deleteFirmLead(deps: PortalDeps, principal: PortalPrincipal, leadId: string) {
  requireRole(principal, 'admin');
  return deleteLead(deps, leadId, { accountId: principal.accountId, actor: actorOf(principal) });
}

/**
 * A data-subject export for the person behind a lead: everything the firm's data holds about
 * that e-mail address (all their leads, results, events, deliveries, alert mails), as the
 * operator's `subject export` builds it. Admins and owners only (it is a privacy request, audited).
 */
export async function exportFirmLeadPerson(deps: PortalDeps, principal: PortalPrincipal, leadId: string) {
  requireRole(principal, 'admin');
  const lead = await findLead(deps.db, principal.accountId, leadId);
  if (!lead) throw new AppError('NOT_FOUND', 'No such lead.');
  return exportSubject(deps, principal.accountId, lead.email, actorOf(principal));
}
