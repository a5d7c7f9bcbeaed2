/**
 * Business time. Every rule that depends on "now" (token expiry, license status, code lifetime)
 * reads it from an injected clock, never from `Date.now()` directly, so tests can freeze it.
 */
export interface Clock {
  now(): Date;
  /**
   * True for the running server's clock (not a test's frozen one). Comparisons that several
   * instances make against shared rows (delivery leases and due times) then use the database's own
   * `now()` instead of this process's time, so an instance whose clock is off cannot take over work
   * still in flight elsewhere (see `dbNow`).
   */
  readonly real?: boolean;
}

export const systemClock: Clock = { now: () => new Date(), real: true };

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
