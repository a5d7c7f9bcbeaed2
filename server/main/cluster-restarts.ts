/**
 * When the cluster primary replaces a worker that died, and when it gives up. A worker that dies
 * after serving for a while is an isolated failure (a bug hit by one request, memory, a kill):
 * it is replaced, however often that happens over the process's life. One that dies before it
 * serves, or within `crashWindowMs` of starting to, has likely met something every replacement
 * will meet too (a bad deploy, a dependency it cannot start without): after `crashLoopDeaths` such
 * deaths in a row in one worker slot the primary stops with a message saying so, rather than
 * forking forever. Replacements after quick deaths wait longer each time (backoff).
 */
export interface RestartPolicyOptions {
  crashWindowMs?: number;
  crashLoopDeaths?: number;
  /** The wait before the first replacement after a quick death; doubled for each one after. */
  backoffMs?: number;
  maxBackoffMs?: number;
}

export type RestartDecision =
  | { action: 'restart'; delayMs: number; quickDeaths: number }
  | { action: 'stop'; reason: string };

const CRASH_WINDOW_MS = 10_000;
const CRASH_LOOP_DEATHS = 3;

export class RestartPolicy {
  private readonly crashWindowMs: number;
  private readonly crashLoopDeaths: number;
  private readonly backoffMs: number;
  private readonly maxBackoffMs: number;
  /** Per worker slot: when its current worker started serving, and its quick deaths in a row. */
  private readonly slots = new Map<number, { readyAt?: number; quickDeaths: number }>();

  constructor(options: RestartPolicyOptions = {}) {
    this.crashWindowMs = options.crashWindowMs ?? CRASH_WINDOW_MS;
    this.crashLoopDeaths = options.crashLoopDeaths ?? CRASH_LOOP_DEATHS;
    this.backoffMs = options.backoffMs ?? 500;
    this.maxBackoffMs = options.maxBackoffMs ?? 10_000;
  }

  /** A new worker was forked into `slot`. */
  started(slot: number): void {
    const state = this.slots.get(slot) ?? { quickDeaths: 0 };
    state.readyAt = undefined;
    this.slots.set(slot, state);
  }

  /** The worker in `slot` answers requests. */
  ready(slot: number, now: number): void {
    const state = this.slots.get(slot) ?? { quickDeaths: 0 };
    state.readyAt = now;
    this.slots.set(slot, state);
  }

  /** The worker in `slot` died (not during a stop): replace it, after how long, or stop. */
  died(slot: number, now: number, how: string): RestartDecision {
    const state = this.slots.get(slot) ?? { quickDeaths: 0 };
    this.slots.set(slot, state);
    const served = state.readyAt === undefined ? undefined : now - state.readyAt;
    if (served !== undefined && served >= this.crashWindowMs) {
      state.quickDeaths = 0;
      return { action: 'restart', delayMs: 0, quickDeaths: 0 };
    }
    state.quickDeaths++;
    if (state.quickDeaths >= this.crashLoopDeaths) {
      const seconds = Math.round(this.crashWindowMs / 1000);
      return {
        action: 'stop',
        reason:
          `svc worker ${slot} is in a crash loop: it died ${state.quickDeaths} times in a row within ` +
          `${seconds} s of starting (last: ${how}); stopping. Its own messages above say why.`,
      };
    }
    const delayMs = Math.min(this.maxBackoffMs, this.backoffMs * 2 ** (state.quickDeaths - 1));
    return { action: 'restart', delayMs, quickDeaths: state.quickDeaths };
  }
}
