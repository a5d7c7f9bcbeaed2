/**
 * Business time. Every rule that depends on "now" (token expiry, license status, code lifetime)
 * reads it from an injected clock, never from `Date.now()` or SQL `now()`, so tests can freeze it.
 */
export interface Clock {
  now(): Date;
}

export const systemClock: Clock = { now: () => new Date() };

/** A clock for tests: starts at `start` and moves only when told. */
export function createFixedClock(
  start: Date | string,
): Clock & { set(at: Date | string): void; advance(ms: number): void } {
  let current = new Date(start);
  return {
    now: () => new Date(current),
    set(at) {
      current = new Date(at);
    },
    advance(ms) {
      current = new Date(current.getTime() + ms);
    },
  };
}
