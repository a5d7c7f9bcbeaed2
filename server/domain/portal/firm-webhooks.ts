import type { PortalDeps, PortalPrincipal } from '../accounts/portal-deps.ts';
import { requireRole } from '../accounts/roles.ts';
import { listDeliveries, replayDelivery, sendTestEvent } from '../delivery/deliveries.ts';
import {
  createEndpoint,
  deleteEndpoint,
  type EndpointChanges,
  listEndpoints,
  rollEndpointSecret,
  updateEndpoint,
} from '../delivery/endpoints.ts';
import type { ActingAs } from '../licensing/lifecycle.ts';
import { actorOf } from './firm-actions.ts';

/**
 * Settings → Webhooks: the lead-delivery domain functions the operator's admin routes call, scoped
 * to the session's firm (another firm's endpoint or delivery is NOT_FOUND) and audited as the
 * user. Viewers read endpoints and deliveries; admins and owners change them.
 */
const writer = (principal: PortalPrincipal): ActingAs => {
  requireRole(principal, 'admin');
  return { actor: actorOf(principal), accountId: principal.accountId };
};

export const listFirmEndpoints = (deps: PortalDeps, p: PortalPrincipal) =>
  listEndpoints(deps.delivery, p.accountId, p);

export const listFirmDeliveries = (deps: PortalDeps, p: PortalPrincipal, endpointId: string, limit: number) =>
  listDeliveries(deps.delivery, endpointId, limit, p);

export const createFirmEndpoint = (
  deps: PortalDeps,
  p: PortalPrincipal,
  input: {
    url: string;
    events: string[];
    description?: string | undefined;
    includeTest?: boolean | undefined;
  },
) => {
  const as = writer(p);
  return createEndpoint(deps.delivery, { ...input, accountId: p.accountId }, as);
};

export const updateFirmEndpoint = (
  deps: PortalDeps,
  p: PortalPrincipal,
  id: string,
  input: EndpointChanges,
) => updateEndpoint(deps.delivery, id, input, writer(p));

export const deleteFirmEndpoint = (deps: PortalDeps, p: PortalPrincipal, id: string) =>
  deleteEndpoint(deps.delivery, id, writer(p));

export const rollFirmEndpointSecret = (
  deps: PortalDeps,
  p: PortalPrincipal,
  id: string,
  overlapSeconds: number,
) => rollEndpointSecret(deps.delivery, id, overlapSeconds, writer(p));

export const sendFirmTestEvent = (deps: PortalDeps, p: PortalPrincipal, id: string) =>
  sendTestEvent(deps.delivery, id, writer(p));

export const replayFirmDelivery = (deps: PortalDeps, p: PortalPrincipal, deliveryId: string) =>
  replayDelivery(deps.delivery, deliveryId, writer(p));
