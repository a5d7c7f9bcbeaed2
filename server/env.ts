import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { type PlanTable, parsePlans } from './domain/licensing/plans.ts';
import { parseTrustProxy } from './http/client-ip.ts';

/**
 * The one place configuration is read. Every variable is validated here; a bad value stops
 * start-up with one readable line naming the variable (see `ConfigError`).
 */
const port = (fallback: number) => z.coerce.number().int().min(0).max(65535).default(fallback);
const flag = (fallback: boolean) =>
  z
    .enum(['1', '0', 'true', 'false', 'yes', 'no', 'on', 'off', ''])
    .default(fallback ? 'true' : 'false')
    .transform((v) => ['1', 'true', 'yes', 'on'].includes(v));
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));
const optionalUrl = (protocols: string[]) =>
  optionalText.refine(
    (v) => v === undefined || (URL.canParse(v) && protocols.includes(new URL(v).protocol)),
    `must be a URL starting with ${protocols.join(' or ')}//`,
  );

const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
  HOST: z.string().min(1).default('127.0.0.1'),
  API_PORT: port(8787),
  EMBED_PORT: port(8788),
  EXAMPLES_PORT: port(8789),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl(['postgres:', 'postgresql:']),
  REDIS_URL: optionalUrl(['redis:', 'rediss:']),
  REDIS_KEY_PREFIX: z
    .string()
    .regex(/^[\w:.-]{1,64}$/, 'must be 1–64 letters, digits, or : . _ -')
    .default('svc:'),
  PUBLIC_API_URL: optionalUrl(['http:', 'https:']),
  PUBLIC_EMBED_URL: optionalUrl(['http:', 'https:']),
  PUBLIC_EXAMPLES_URL: optionalUrl(['http:', 'https:']),
  PUBLIC_PORTAL_URL: optionalUrl(['http:', 'https:']),
  CORS_ORIGINS: optionalText,
  TRUST_PROXY: optionalText.transform((v, ctx) => {
    try {
      return parseTrustProxy(v);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  }),
  RATE_LIMIT_SCALE: z.coerce.number().positive().max(1000).default(1),
  BODY_LIMIT_BYTES: z.coerce.number().int().min(1024).max(10_485_760).default(65_536),
  STRIPE_SECRET_KEY: optionalText,
  STRIPE_API_BASE: optionalUrl(['http:', 'https:']),
  STRIPE_WEBHOOK_SECRET: optionalText.refine(
    (v) => v === undefined || v.startsWith('whsec_'),
    'must be the endpoint signing secret Stripe shows (whsec_…)',
  ),
  SECRET_KEY: optionalText.refine((v) => v === undefined || v.length >= 32, 'must be at least 32 characters'),
  ADMIN_TOKEN: optionalText.refine(
    (v) => v === undefined || v.length >= 32,
    'must be at least 32 characters',
  ),
  METRICS_TOKEN: optionalText.refine(
    (v) => v === undefined || v.length >= 16,
    'must be at least 16 characters',
  ),
  SEED_DEMO: flag(true),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  // Processes serving the same ports (node:cluster), for the scale-out mode: `auto` is one per core.
  WEB_CONCURRENCY: z
    .union([z.literal('auto'), z.coerce.number().int().min(1).max(64)])
    .default(1)
    .transform((v) => (v === 'auto' ? availableParallelism() : v)),
  SHUTDOWN_TIMEOUT_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  // /readyz answers 503 when DATA_DIR's file system has less free space than this.
  READY_MIN_FREE_MB: z.coerce.number().int().min(0).max(1_000_000).default(100),
  // Lead delivery (webhooks, alert mails, retention).
  WEBHOOK_ALLOW_PRIVATE_HOSTS: optionalText.transform((v) =>
    (v ?? '')
      .split(',')
      .map((h) =>
        h
          .trim()
          .toLowerCase()
          .replace(/^\[|\]$/g, ''),
      )
      .filter(Boolean),
  ),
  WEBHOOK_TIMEOUT_MS: z.coerce.number().int().min(500).max(60_000).default(15_000),
  DELIVERY_WORKER: flag(true),
  DELIVERY_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(16),
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().min(3).max(200).default('svc alerts <alerts@svc.localhost>'),
  RESULT_RETENTION_DAYS: z.coerce.number().int().min(1).max(3650).default(365),
  ACCOUNT_CLOSE_GRACE_DAYS: z.coerce.number().int().min(0).max(365).default(30),
  PLANS: optionalText.transform((v, ctx) => {
    try {
      return parsePlans(v);
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  }),
});

type Env = z.output<typeof EnvSchema>;

export interface Config extends Env {
  publicApiUrl: string;
  publicEmbedUrl: string;
  publicExamplesUrl: string;
  /** Where the portal is served and what WebAuthn uses as relying party (a host name, never an IP). */
  publicPortalUrl: string;
  corsOrigins: string[];
  plans: PlanTable;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

/** Reads and validates configuration; throws `ConfigError` naming the first bad variable. */
export function loadConfig(source: Record<string, string | undefined> = process.env): Config {
  const parsed = EnvSchema.safeParse(source);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const name = String(issue.path[0] ?? 'environment');
    const value = source[name];
    const shown =
      value === undefined || /SECRET|TOKEN|KEY|DATABASE_URL|REDIS_URL|SMTP_URL/.test(name)
        ? ''
        : ` (got "${value}")`;
    throw new ConfigError(`Invalid configuration: ${name} ${issue.message}${shown}`);
  }
  const env = parsed.data;
  if (env.WEB_CONCURRENCY > 1 && !(env.DATABASE_URL && env.REDIS_URL))
    throw new ConfigError(
      `Invalid configuration: WEB_CONCURRENCY ${env.WEB_CONCURRENCY} needs DATABASE_URL and REDIS_URL: ` +
        'the embedded database belongs to one process, and several processes share rate limits and ' +
        'caches through Redis. Unset it, or set both.',
    );
  const hostForUrl = env.HOST === '0.0.0.0' || env.HOST === '::' ? '127.0.0.1' : env.HOST;
  return {
    ...env,
    plans: env.PLANS,
    publicApiUrl: trimSlash(env.PUBLIC_API_URL ?? `http://${hostForUrl}:${env.API_PORT}`),
    publicEmbedUrl: trimSlash(env.PUBLIC_EMBED_URL ?? `http://${hostForUrl}:${env.EMBED_PORT}`),
    publicExamplesUrl: trimSlash(env.PUBLIC_EXAMPLES_URL ?? `http://localhost:${env.EXAMPLES_PORT}`),
    publicPortalUrl: trimSlash(env.PUBLIC_PORTAL_URL ?? `http://localhost:${env.API_PORT}`),
    corsOrigins: (env.CORS_ORIGINS ?? '')
      .split(',')
      .map((o) => trimSlash(o.trim()))
      .filter(Boolean),
  };
}

const trimSlash = (url: string) => url.replace(/\/+$/, '');
