import type { Redis } from 'ioredis';
import { AppError } from '../../lib/errors.ts';
import { createCounters, type FixedWindow } from './counters.ts';

/**
 * Sign-in attempts. Refused with 429: per client IP, and per e-mail address *from one client*
 * (`emailClient`), so strangers asking for someone's address from other IPs cannot lock that
 * person out. Counted silently: mails actually sent per address (`mail`), so asking from many IPs
 * cannot flood a mailbox either; over it the answer stays 202 and no mail goes out. A browser that
 * completed a sign-in as the address before (`known-browser.ts`) has its own mail allowance
 * (`knownMail`, per address and browser), which strangers' requests cannot use up.
 */
const SIGN_IN_LIMITS = {
  ip: { points: 30, duration: 15 * 60 },
  emailClient: { points: 5, duration: 15 * 60 },
  mail: { points: 10, duration: 60 * 60 },
  knownMail: { points: 5, duration: 60 * 60 },
} as const;

export interface SignInLimiter {
  /** Counts one attempt; throws 429 RATE_LIMITED with Retry-After when over either limit. */
  consume(keys: { ip: string; email?: string }): Promise<void>;
  /**
   * Counts one sign-in mail for `email`; false (never an error) when its mail cap is reached: the
   * cap strangers share, or with `browser` (a known browser's id) that browser's own.
   */
  mayMail(email: string, browser?: string): Promise<boolean>;
}

/**
 * On the service's counters (`counters.ts`), under `<prefix>signin:`. `prefix` is
 * REDIS_KEY_PREFIX: deployments sharing one Redis keep their own counters.
 */
export function createSignInLimiter(opts: { scale: number; redis?: Redis; prefix?: string }): SignInLimiter {
  const counters = createCounters({ redis: opts.redis, prefix: opts.prefix });
  const make = (name: keyof typeof SIGN_IN_LIMITS): FixedWindow => {
    const { points, duration } = SIGN_IN_LIMITS[name];
    return counters.window(`signin:${name}`, Math.max(1, Math.round(points * opts.scale)), duration);
  };
  const byIp = make('ip');
  const byEmailClient = make('emailClient');
  const mails = make('mail');
  const knownMails = make('knownMail');
  const take = async (window: FixedWindow, key: string) => {
    const count = await window.hit(key);
    if (count.allowed) return;
    const retryAfter = String(Math.max(1, Math.ceil(count.resetMs / 1000)));
    throw new AppError('RATE_LIMITED', `Too many sign-in attempts. Try again in ${retryAfter} seconds.`, {
      headers: { 'Retry-After': retryAfter },
    });
  };
  const normal = (email: string) => email.trim().toLowerCase();
  return {
    async consume({ ip, email }) {
      await take(byIp, ip);
      if (email) await take(byEmailClient, `${normal(email)}|${ip}`);
    },
    async mayMail(email, browser) {
      if (browser) return (await knownMails.hit(`${normal(email)}|${browser}`)).allowed;
      return (await mails.hit(normal(email))).allowed;
    },
  };
}
