import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../../lib/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { addHeaders } from '../headers/response-headers.ts';
import { ipRateKey } from '../requests/client-ip.ts';
import { handedOn } from '../requests/handed-on.ts';
import { rateLimitGroupOf } from './rate-limit-groups.ts';
import type { RateDecision, RateLimiter, WatchedCounter } from './rate-limiter.ts';

/** An embed token's license, whose ceilings may tighten the per-IP budget. */
interface EmbedCaller {
  licenseId: string;
  plan: string;
}

/**
 * Resolves the rate-limit key of a request: a verified credential's key (`license:<id>`,
 * `embed:<license>:<ip>`, `apikey:<id>`) or `undefined` to fall back to the client IP.
 */
export type CredentialKeyResolver = (
  c: Context<AppEnv>,
) => Promise<string | { key: string; embed?: EmbedCaller } | undefined>;

export interface RateLimitOptions {
  limiter: RateLimiter;
  ipOf: (c: Context<AppEnv>) => string;
  credentialKey?: CredentialKeyResolver | undefined;
  /**
   * Per-license ceilings of embed callers: `watch` names the license's counter, read in the rate
   * limiter's own round trip; `check` throws RATE_LIMITED when the license is over its ceiling
   * and this IP's tight budget is spent.
   */
  tighten?:
    | {
        watch(caller: EmbedCaller): WatchedCounter;
        check(caller: EmbedCaller, ipKey: string, watched: number): Promise<void>;
      }
    | undefined;
  now: () => number;
  /** Told of every refusal (metrics). */
  onRefused?: (group: string) => void;
}

/**
 * The count of a request whose route takes it (`DEFERRED`): the route calls it once, first thing
 * after its body is validated and before any lookup, naming a further counter that counts the
 * request in the same Redis round trip (or none); it resolves to that counter's new count, or
 * throws RATE_LIMITED as the middleware would. A request whose route never calls it (a body that
 * fails validation, an unknown path) is counted after the route answers, so every request counts.
 */
export type RateGate = (also?: WatchedCounter) => Promise<number | undefined>;

/**
 * POST routes that take their own count through `c.get('rateGate')`: the embed session, whose license
 * (found in the body, from the caches) counts the session toward its plan ceiling in the same
 * round trip as the rate limit. Until the route calls the gate nothing but the body's checks runs.
 */
const DEFERRED = new Set(['/v1/api/license/activate']);

/** The GitHub-style X-RateLimit-* trio and the IETF draft RateLimit/RateLimit-Policy pair. */
export function rateLimitHeaders(d: RateDecision, nowMs: number): Record<string, string> {
  const resetSeconds = Math.max(0, Math.ceil(d.resetMs / 1000));
  const remaining = Math.max(0, d.remaining);
  return {
    'X-RateLimit-Limit': String(d.limit),
    'X-RateLimit-Remaining': String(remaining),
    'X-RateLimit-Reset': String(Math.ceil((nowMs + d.resetMs) / 1000)),
    'X-RateLimit-Resource': d.group,
    'RateLimit-Policy': `"${d.group}";q=${d.limit};w=60`,
    RateLimit: `"${d.group}";r=${remaining};t=${resetSeconds}`,
  };
}

/**
 * Counts every request against its group before anything else runs (the embed session's route
 * takes its count itself, right after its body's checks: `DEFERRED`), so that errors, 404s and
 * preflights carry the headers too. The headers go on the answer after the route has made it (a
 * refusal carries them in its error): set before, they would reach only answers made through
 * Hono's helpers, and touching the answer early makes Hono copy it. Activation is always keyed by IP (brute force is per caller,
 * not per credential); other groups by credential when one verifies, else by IP.
 */
export function rateLimit(opts: RateLimitOptions): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const group = rateLimitGroupOf(c.req.method, c.req.path);
    const ip = opts.ipOf(c);
    c.set('clientIp', ip);
    const resolved = group === 'activation' ? undefined : await opts.credentialKey?.(c);
    const credential: { key: string; embed?: EmbedCaller } | undefined =
      typeof resolved === 'string' ? { key: resolved } : resolved;
    const key = credential?.key ?? `ip:${ipRateKey(ip)}`;
    const embed = opts.tighten && credential?.embed;
    let decision: RateDecision | undefined;
    let now = 0;
    // A lane that gave this request to Hono took its count already (`handed-on.ts`): lanes take
    // only requests with nothing further to count (no watched or also-counter).
    const handed = handedOn(c)?.counted;
    const consume = async (also?: WatchedCounter) => {
      const counted: Awaited<ReturnType<RateLimiter['consume']>> =
        handed && !also && !embed
          ? handed.decision
          : await opts.limiter.consume(group, key, embed ? opts.tighten!.watch(embed) : undefined, also);
      decision = counted;
      c.set('rateDecision', counted);
      now = handed && counted === handed.decision ? handed.now : opts.now();
      return counted;
    };
    const count = async (also?: WatchedCounter): Promise<number | undefined> => {
      const counted = await consume(also);
      // A refusal made here is answered by the error handler, through Hono's helpers: there the
      // headers set now are kept.
      const refuseWithHeaders = (err: unknown) => {
        for (const [name, value] of Object.entries(rateLimitHeaders(counted, now))) c.header(name, value);
        return err;
      };
      if (!counted.allowed) {
        opts.onRefused?.(group);
        const retryAfter = String(Math.max(1, Math.ceil(counted.resetMs / 1000)));
        throw refuseWithHeaders(
          new AppError('RATE_LIMITED', `Too many requests. Retry after ${retryAfter} seconds.`, {
            headers: { 'Retry-After': retryAfter },
          }),
        );
      }
      if (embed) {
        try {
          await opts.tighten!.check(embed, ipRateKey(ip), counted.watched ?? 0);
        } catch (err) {
          throw refuseWithHeaders(err);
        }
      }
      return counted.also;
    };
    if (c.req.method !== 'POST' || !DEFERRED.has(c.req.path)) {
      await count();
      await next();
      addHeaders(c, rateLimitHeaders(decision!, now));
      return;
    }
    let gate: Promise<number | undefined> | undefined;
    c.set('rateGate', (also) => {
      gate ??= count(also);
      return gate;
    });
    await next();
    // The route answered without taking its count (its body failed the checks): counted now. Its
    // answer stands (a refusal here has nothing left to refuse); the headers say the count.
    if (!gate) await consume();
    if (decision) addHeaders(c, rateLimitHeaders(decision, now));
  };
}
