/**
 * How long a refresh token lives unused: a site that neither activated nor refreshed for this long
 * can no longer use any token it had. Licensing owns it because it decides what a seat is: an idle
 * activation holds no seat (activation, refresh and MCP tokens read the same figure from here).
 */
export const REFRESH_IDLE_TTL_MS = 60 * 86_400_000;

/**
 * An activation is idle when nothing activated or refreshed it for longer than a refresh token
 * lives (60 days): every refresh token it ever had has expired, so no client can use it again.
 * Computed from `last_seen_at`, which only activation and refresh write (never a plain request).
 */
export const idleCutoff = (now: Date) => new Date(now.getTime() - REFRESH_IDLE_TTL_MS);
export const isIdleActivation = (activation: { lastSeenAt: Date }, now: Date) =>
  activation.lastSeenAt.getTime() <= idleCutoff(now).getTime();
