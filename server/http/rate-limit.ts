import type { Context, MiddlewareHandler } from 'hono';
import { AppError } from '../errors.ts';
import type { AppEnv } from './app-env.ts';
import { ipRateKey } from './client-ip.ts';
import { rateLimitGroupOf } from './rate-limit-groups.ts';
import type { RateDecision, RateLimiter } from './rate-limiter.ts';

/** An embed token's license, whose ceilings may tighten the per-IP budget. */
export interface EmbedCaller {
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
  /** Throws RATE_LIMITED when an embed caller's license is over its ceiling and this IP's tight budget is spent. */
  tighten?: ((caller: EmbedCaller, ipKey: string) => Promise<void>) | undefined;
  now: () => number;
  /** Told of every refusal (metrics). */
  onRefused?: (group: string) => void;
}

/** Writes the GitHub-style X-RateLimit-* trio and the IETF draft RateLimit/RateLimit-Policy pair. */
export function setRateLimitHeaders(c: Context, d: RateDecision, nowMs: number): void {
  const resetSeconds = Math.max(0, Math.ceil(d.resetMs / 1000));
  c.header('X-RateLimit-Limit', String(d.limit));
  c.header('X-RateLimit-Remaining', String(Math.max(0, d.remaining)));
  c.header('X-RateLimit-Reset', String(Math.ceil((nowMs + d.resetMs) / 1000)));
  c.header('X-RateLimit-Resource', d.group);
  c.header('RateLimit-Policy', `"${d.group}";q=${d.limit};w=60`);
  c.header('RateLimit', `"${d.group}";r=${Math.max(0, d.remaining)};t=${resetSeconds}`);
}

/**
 * Counts every request against its group before anything else runs, so that errors, 404s and
 * preflights carry the headers too. Activation is always keyed by IP (brute force is per caller,
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
    const decision = await opts.limiter.consume(group, key);
    c.set('rateDecision', decision);
    setRateLimitHeaders(c, decision, opts.now());
    if (!decision.allowed) {
      opts.onRefused?.(group);
      const retryAfter = String(Math.max(1, Math.ceil(decision.resetMs / 1000)));
      throw new AppError('RATE_LIMITED', `Too many requests. Retry after ${retryAfter} seconds.`, {
        headers: { 'Retry-After': retryAfter },
      });
    }
    if (credential?.embed && opts.tighten) await opts.tighten(credential.embed, ipRateKey(ip));
    await next();
  };
}
