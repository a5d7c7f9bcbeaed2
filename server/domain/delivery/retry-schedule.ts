/**
 * Waits after each failed attempt (attempt 1 goes at once): 5 s, 1 min, 5 min, 30 min, 2 h, 5 h,
 * 10 h, 10 h — nine attempts over about 27.6 hours, each wait jittered by ±20% so that a receiver
 * coming back from an outage is not hit by every queued delivery in the same second.
 */
export const RETRY_DELAYS_MS = [
  5_000,
  60_000,
  5 * 60_000,
  30 * 60_000,
  2 * 3_600_000,
  5 * 3_600_000,
  10 * 3_600_000,
  10 * 3_600_000,
] as const;

export const MAX_ATTEMPTS = RETRY_DELAYS_MS.length + 1;
const JITTER = 0.2;

/** When attempt `attempts + 1` is due after `attempts` failures, or null when none is left. */
export function nextAttemptAt(attempts: number, now: Date, random: () => number = Math.random): Date | null {
  const base = RETRY_DELAYS_MS[attempts - 1];
  if (base === undefined) return null;
  const factor = 1 + JITTER * (2 * random() - 1);
  return new Date(now.getTime() + Math.round(base * factor));
}
