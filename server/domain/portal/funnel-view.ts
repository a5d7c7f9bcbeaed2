import { embedSightings } from '../../db/repos/funnel-repo.ts';
import type { PortalPrincipal } from '../accounts/portal-deps.ts';
import { funnelPeriod, funnelReport, funnelSeries, periodBefore } from '../funnel/report.ts';
import type { PortalAppDeps } from './deps.ts';

/**
 * The Overview's funnel: the last 30 UTC days (today included) against the 30 before, by
 * calculator and by page, and the daily views, calculations and leads of the 30 days.
 */
export async function portalFunnel(deps: PortalAppDeps, principal: PortalPrincipal) {
  const current = funnelPeriod(deps.clock.now(), {});
  const previous = periodBefore(current);
  const [now, before, days] = await Promise.all([
    funnelReport(deps, principal.accountId, current),
    funnelReport(deps, principal.accountId, previous),
    funnelSeries(deps, principal.accountId, current),
  ]);
  return { current: now, previous: { from: before.from, to: before.to, totals: before.totals }, days };
}

/**
 * Where a firm's embeds are live, per license: each site origin the funnel saw, with the last UTC
 * day it counted a view and a lead (embed sessions take no seat, so the seats alone never say it).
 */
export async function portalEmbeds(deps: PortalAppDeps, principal: PortalPrincipal) {
  await deps.funnel?.flush().catch(() => {});
  const rows = await embedSightings(deps.db, principal.accountId);
  return {
    data: rows
      .map((r) => ({ licenseId: r.licenseId, origin: r.origin, lastView: r.lastView, lastLead: r.lastLead }))
      .sort((a, b) => (b.lastView ?? '').localeCompare(a.lastView ?? '') || a.origin.localeCompare(b.origin)),
  };
}
