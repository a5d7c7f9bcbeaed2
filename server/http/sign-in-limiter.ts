import type { Redis } from 'ioredis';
import { RateLimiterMemory, RateLimiterRedis, RateLimiterRes } from 'rate-limiter-flexible';
import { AppError } from '../errors.ts';

/** Sign-in attempts: per e-mail address (a mailbox is not to be flooded) and per client IP. */
export const SIGN_IN_LIMITS = {
  email: { points: 5, duration: 15 * 60 },
  ip: { points: 30, duration: 15 * 60 },
} as const;

export interface SignInLimiter {
  /** Counts one attempt; throws 429 RATE_LIMITED with Retry-After when over either limit. */
  consume(keys: { ip: string; email?: string }): Promise<void>;
}

export function createSignInLimiter(opts: { scale: number; redis?: Redis }): SignInLimiter {
  const make = (name: keyof typeof SIGN_IN_LIMITS) => {
    const { points, duration } = SIGN_IN_LIMITS[name];
    const scaled = Math.max(1, Math.round(points * opts.scale));
    const keyPrefix = `svc:signin:${name}`;
    const memory = new RateLimiterMemory({ points: scaled, duration, keyPrefix });
    return opts.redis
      ? new RateLimiterRedis({
          storeClient: opts.redis,
          points: scaled,
          duration,
          keyPrefix,
          insuranceLimiter: memory,
        })
      : memory;
  };
  const byEmail = make('email');
  const byIp = make('ip');
  const take = async (limiter: RateLimiterMemory | RateLimiterRedis, key: string) => {
    try {
      await limiter.consume(key);
    } catch (rejection) {
      if (!(rejection instanceof RateLimiterRes)) throw rejection;
      const retryAfter = String(Math.max(1, Math.ceil(rejection.msBeforeNext / 1000)));
      throw new AppError('RATE_LIMITED', `Too many sign-in attempts. Try again in ${retryAfter} seconds.`, {
        headers: { 'Retry-After': retryAfter },
      });
    }
  };
  return {
    async consume({ ip, email }) {
      await take(byIp, ip);
      if (email) await take(byEmail, email.trim().toLowerCase());
    },
  };
}
