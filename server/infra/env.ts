import { availableParallelism } from 'node:os';
import { z } from 'zod';
import { parseDestinationBaseUrls } from '../domain/destinations/base-urls.ts';
import { type PlanTable, parsePlans } from '../domain/licensing/plans.ts';
import { parseTrustProxy } from '../http/requests/client-ip.ts';

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

export const EnvSchema = z.object({
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
  // The balancer's notice period: /readyz is 503 while the listeners still accept, then the drain.
  SHUTDOWN_DRAIN_MS: z.coerce.number().int().min(0).max(120_000).default(0),
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
  DESTINATION_BASE_URLS: optionalText.transform((v, ctx) => {
    try {
      return { text: v, bases: parseDestinationBaseUrls(v) };
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message });
      return z.NEVER;
    }
  }),
  DELIVERY_WORKER: flag(true),
  DELIVERY_POLL_MS: z.coerce.number().int().min(50).max(60_000).default(1_000),
  DELIVERY_CONCURRENCY: z.coerce.number().int().min(1).max(1_000).default(16),
  MAIL_CONCURRENCY: z.coerce.number().int().min(1).max(100).default(4),
  SMTP_URL: optionalUrl(['smtp:', 'smtps:']),
  MAIL_FROM: z.string().min(3).max(200).default('svc alerts <alerts@svc.localhost>'),
  /** Access-token lifetime; shorter only to watch a client refresh (the WordPress suite uses 20). */
  ACCESS_TOKEN_TTL_SECONDS: z.coerce.number().int().min(10).max(900).default(900),
  /** How often each instance writes its funnel counts: the most a crash of it loses. */
  FUNNEL_FLUSH_SECONDS: z.coerce.number().int().min(1).max(60).default(5),
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

/** A variable as docs/configuration.md shows it (written by `npm run docs`, scripts/docs-generate.ts). */
export interface EnvDoc {
  section: EnvSection;
  description: string;
  /** What happens when the variable is unset and the schema has no default of its own. */
  unset?: string;
}
type EnvSection = (typeof ENV_SECTIONS)[number];
export const ENV_SECTIONS = [
  'Listeners and addresses',
  'Database and Redis',
  'HTTP',
  'Secrets and tokens',
  'Stripe',
  'Processes and health',
  'Lead delivery and mail',
  'Retention',
] as const;

/** Every variable of `EnvSchema`, described; the type makes a new variable without words fail to compile. */
export const ENV_DOCS = {
  NODE_ENV: {
    section: 'Processes and health',
    description: '`production` never prints demo credentials; `test` is what the test suites set',
  },
  HOST: {
    section: 'Listeners and addresses',
    description: 'interface the API, embed and examples listeners bind to',
  },
  API_PORT: {
    section: 'Listeners and addresses',
    description: 'API port (`0` = any free port); the portal is served here too',
  },
  EMBED_PORT: {
    section: 'Listeners and addresses',
    description: 'embed host port: `loader.js`, widget pages and assets',
  },
  EXAMPLES_PORT: {
    section: 'Listeners and addresses',
    description: 'example host pages, on another origin so origin checks are real',
  },
  DATA_DIR: {
    section: 'Listeners and addresses',
    description:
      'embedded database, key file, admin token, mail files; created 0700, files 0600 (tightened on start-up)',
  },
  DATABASE_URL: {
    section: 'Database and Redis',
    description: 'PostgreSQL (`postgres://…`)',
    unset: 'the embedded PGlite database in `DATA_DIR`',
  },
  REDIS_URL: {
    section: 'Database and Redis',
    description: "shared rate-limit counters and the lookup caches' epoch (`redis://` or `rediss://`)",
    unset: 'counters in process memory',
  },
  REDIS_KEY_PREFIX: {
    section: 'Database and Redis',
    description: 'prefix of every Redis key svc writes (deployments or test runs sharing one Redis)',
  },
  PUBLIC_API_URL: {
    section: 'Listeners and addresses',
    description: "the API's public base URL (token issuer, links in mails)",
    unset: '`http://HOST:API_PORT`',
  },
  PUBLIC_EMBED_URL: {
    section: 'Listeners and addresses',
    description: "the embed host's public origin",
    unset: '`http://HOST:EMBED_PORT`',
  },
  PUBLIC_EXAMPLES_URL: {
    section: 'Listeners and addresses',
    description: 'the examples host',
    unset: '`http://localhost:EXAMPLES_PORT`',
  },
  PUBLIC_PORTAL_URL: {
    section: 'Listeners and addresses',
    description: "where the portal is served; WebAuthn's origin and relying party (a host name, never an IP)",
    unset: '`http://localhost:API_PORT`',
  },
  CORS_ORIGINS: {
    section: 'HTTP',
    description: 'extra origins allowed to call the REST API from a browser (comma list)',
    unset: 'none',
  },
  TRUST_PROXY: {
    section: 'HTTP',
    description:
      'which `X-Forwarded-For` entries to believe: `false`, `true` (= `1`), a hop count, or a comma list of trusted proxy CIDRs',
    unset: '`false`: the socket address is the client',
  },
  RATE_LIMIT_SCALE: { section: 'HTTP', description: 'multiplies every rate limit' },
  BODY_LIMIT_BYTES: {
    section: 'HTTP',
    description: 'largest accepted request body (413 `PAYLOAD_TOO_LARGE` above)',
  },
  STRIPE_SECRET_KEY: {
    section: 'Stripe',
    description: 'use Stripe for checkout and the billing portal',
    unset: 'the built-in billing page; checkout answers 501',
  },
  STRIPE_API_BASE: {
    section: 'Stripe',
    description: "Stripe's API base URL (testing against a local stand-in)",
    unset: "Stripe's",
  },
  STRIPE_WEBHOOK_SECRET: {
    section: 'Stripe',
    description: 'the `whsec_…` signing secret of the Stripe webhook endpoint',
    unset: '`POST /v1/webhooks/stripe` answers 501',
  },
  SECRET_KEY: {
    section: 'Secrets and tokens',
    description:
      'at least 32 characters; encrypts signing keys and secrets at rest. Set it when several instances share PostgreSQL',
    unset: 'a key file, `DATA_DIR/secret.key`',
  },
  ADMIN_TOKEN: {
    section: 'Secrets and tokens',
    description: 'at least 32 characters; bearer token of the admin API the CLI calls',
    unset: 'generated into `DATA_DIR/admin-token`',
  },
  ACCESS_TOKEN_TTL_SECONDS: {
    section: 'Secrets and tokens',
    description:
      'lifetime of REST access tokens, 10 to 900 seconds; shorten it only to watch a client refresh in a test',
  },
  METRICS_TOKEN: {
    section: 'Secrets and tokens',
    description: 'at least 16 characters; enables `GET /metrics` for that bearer token',
    unset: 'no `/metrics`',
  },
  SEED_DEMO: { section: 'Processes and health', description: 'create the demo firm on an empty database' },
  LOG_LEVEL: { section: 'Processes and health', description: 'pino level (`silent` mutes the logs)' },
  WEB_CONCURRENCY: {
    section: 'Processes and health',
    description:
      'server processes sharing the ports on this machine (`auto` = one per core); above 1 needs `DATABASE_URL` and `REDIS_URL`',
  },
  SHUTDOWN_DRAIN_MS: {
    section: 'Processes and health',
    description:
      'on SIGTERM, how long `/readyz` answers 503 while new requests are still accepted and served, before the drain starts; set it to the time your balancer needs to take an unready instance out of service',
  },
  SHUTDOWN_TIMEOUT_MS: {
    section: 'Processes and health',
    description: 'how long SIGTERM waits for in-flight requests, after `SHUTDOWN_DRAIN_MS`',
  },
  READY_MIN_FREE_MB: {
    section: 'Processes and health',
    description: '`/readyz` answers 503 when the file system of `DATA_DIR` has less free space (MB)',
  },
  WEBHOOK_ALLOW_PRIVATE_HOSTS: {
    section: 'Lead delivery and mail',
    description: 'comma list of webhook hosts that may resolve to private addresses (`127.0.0.1,localhost`)',
    unset: 'none',
  },
  DESTINATION_BASE_URLS: {
    section: 'Lead delivery and mail',
    description:
      'for tests and staging only: comma list of `vendor=url` (vendors `clio-grow`, `hubspot`, `salesforce`, `wealthbox`, `lead-docket`) whose scheme and host replace a CRM destination vendor’s (its path is kept); the hosts named may be private while it is set, the start banner warns, and it is refused with `NODE_ENV=production`',
    unset: 'every destination goes to its vendor’s own host',
  },
  WEBHOOK_TIMEOUT_MS: {
    section: 'Lead delivery and mail',
    description: 'time for one webhook attempt, response included',
  },
  DELIVERY_WORKER: {
    section: 'Lead delivery and mail',
    description: 'run the delivery and retention worker in this process',
  },
  DELIVERY_POLL_MS: {
    section: 'Lead delivery and mail',
    description: 'how often an idle worker looks for due work',
  },
  DELIVERY_CONCURRENCY: {
    section: 'Lead delivery and mail',
    description: 'webhook attempts one instance keeps in flight (C); one firm gets at most max(2, C/4)',
  },
  MAIL_CONCURRENCY: {
    section: 'Lead delivery and mail',
    description: 'mails one instance sends at once (its own pool; one firm at most 2)',
  },
  SMTP_URL: {
    section: 'Lead delivery and mail',
    description: '`smtp://user:pass@host:587` or `smtps://…` for alert, sign-in and invitation mails',
    unset: 'each mail is written to `DATA_DIR/outbox/`',
  },
  MAIL_FROM: {
    section: 'Lead delivery and mail',
    description: 'sender of every mail (alerts, sign-in links, invitations)',
  },
  FUNNEL_FLUSH_SECONDS: {
    section: 'Processes and health',
    description:
      'seconds between writes of the funnel counts each instance holds in memory, 1 to 60: the most a crash (`kill -9`) of that instance loses',
  },
  RESULT_RETENTION_DAYS: { section: 'Retention', description: 'days a result without a lead is kept' },
  ACCOUNT_CLOSE_GRACE_DAYS: {
    section: 'Retention',
    description: "days between `account close` and the deletion of the firm's data",
  },
  PLANS: {
    section: 'HTTP',
    description: 'JSON overrides of the plan table, e.g. `{"pro":{"seats":5}}`',
    unset: 'the built-in plans',
  },
} satisfies Record<keyof z.input<typeof EnvSchema>, EnvDoc>;

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
  if (env.NODE_ENV === 'production' && env.DESTINATION_BASE_URLS?.text)
    throw new ConfigError(
      'Invalid configuration: DESTINATION_BASE_URLS redirects CRM destinations away from their vendors and is for tests and staging only; it is refused with NODE_ENV=production. Unset it.',
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
