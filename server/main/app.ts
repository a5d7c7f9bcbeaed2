import { OpenAPIHono } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { getPath } from 'hono/utils/url';
import type { Logger } from 'pino';
import type { LicensingDeps } from '../domain/deps.ts';
import type { AppEnv } from '../http/app-env.ts';
import { discardUnreadBody } from '../http/body/discard-body.ts';
import { requireJsonBody } from '../http/body/json-body.ts';
import { refuseNul } from '../http/body/refuse-nul.ts';
import { corsPolicy } from '../http/cors/cors-policy.ts';
import { errorResponse, handleError } from '../http/errors/error-handler.ts';
import { allowedMethods } from '../http/errors/method-not-allowed.ts';
import { type Metrics, metricsHandler } from '../http/metrics/metrics.ts';
import {
  type CredentialKeyResolver,
  type RateLimitOptions,
  rateLimit,
} from '../http/rate-limit/rate-limit.ts';
import type { RateLimiter } from '../http/rate-limit/rate-limiter.ts';
import { clientIp } from '../http/requests/client-ip.ts';
import type { NodeLane } from '../http/requests/node-front.ts';
import { requestFrame } from '../http/requests/request-frame.ts';
import type { Config } from '../infra/env.ts';
import type { Clock } from '../lib/clock.ts';
import { AppError } from '../lib/errors.ts';
import { registerApiDocuments } from '../routes/openapi-documents.ts';
import { createDocsRoutes } from '../routes/public/docs.ts';
import { createHealthRoutes } from '../routes/public/health.ts';
import { licenseStatusLane } from '../routes/public/license-status-lane.ts';

export interface AppDeps {
  config: Config;
  clock: Clock;
  logger: Logger;
  rateLimiter: RateLimiter;
  /** Database liveness for /readyz. */
  ping(): Promise<void>;
  /** Redis liveness for /readyz (scale-out only). */
  pingRedis?: () => Promise<void>;
  isShuttingDown?: () => boolean;
  /** Prometheus metrics; served at /metrics when METRICS_TOKEN is set. */
  metrics?: Metrics;
  /** Verified credential → rate-limit key; provided by the auth layer. */
  credentialKey?: CredentialKeyResolver;
  /** Per-license ceilings for embed-token traffic (trust model); see `RateLimitOptions.tighten`. */
  tighten?: RateLimitOptions['tighten'];
  /** Feature routers mounted under /v1 (each an OpenAPIHono so it appears in the OpenAPI document). */
  v1Routes?: OpenAPIHono<AppEnv>[];
  /** Routers mounted at the root (e.g. /.well-known/jwks.json, built-in billing page). */
  rootRoutes?: OpenAPIHono<AppEnv>[];
  /** With it, license status is also answered on the socket, before Hono (`app.lane`). */
  licensing?: LicensingDeps;
}

/** The API app, and the lane a listener runs before it (`node-front.ts`). */
export type ApiApp = OpenAPIHono<AppEnv> & { lane?: NodeLane };

/**
 * Unversioned `/api/...` and `/mcp` paths are aliases of `/v1/...`: one route table serves both.
 * A trailing slash is dropped (`/v1/api/leads/` is `/v1/api/leads`), so a route, its 405 and its
 * `Allow` header agree whichever way the path is written.
 */
export function canonicalPath(request: Request): string {
  const raw = getPath(request);
  const path = raw.length > 1 ? raw.replace(/\/+$/, '') || '/' : raw;
  if (path.startsWith('/api/') || path === '/mcp') return `/v1${path}`;
  return path;
}

const HEALTHZ_BODY = JSON.stringify({ status: 'ok' });

const FORM_PATHS = new Set(['/v1/api/licenses/revoke']);

export function createApp(deps: AppDeps): ApiApp {
  const { config } = deps;
  const app = new OpenAPIHono<AppEnv>({ getPath: canonicalPath });

  // Liveness probes run every few seconds from every balancer: answered before the middleware chain
  // (no log line, no rate-limit count), with the few headers a static answer needs.
  // The answer's headers are a plain object: the node adapter writes those as they are, without a
  // Fetch `Headers` list.
  app.get(
    '/healthz',
    () =>
      new Response(HEALTHZ_BODY, {
        headers: {
          'Content-Type': 'application/json',
          'Cache-Control': 'no-store',
          'X-Content-Type-Options': 'nosniff',
          'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
        },
      }),
  );
  // Scrapes come from the operator's Prometheus, behind its own token: not rate limited either.
  if (deps.metrics && config.METRICS_TOKEN)
    app.get('/metrics', metricsHandler(deps.metrics, config.METRICS_TOKEN));
  const cors = corsPolicy(config.publicEmbedUrl, config.corsOrigins, new URL(config.publicApiUrl).origin);
  // Metrics, request id, logger and access line, and the headers every answer carries (CORS on
  // /v1, security, X-Request-Id): outside everything below, so errors and 429s have them too.
  app.use(requestFrame({ logger: deps.logger, metrics: deps.metrics, cors }));
  const limit = rateLimit({
    limiter: deps.rateLimiter,
    ipOf: (c) => clientIp(c, config.TRUST_PROXY),
    credentialKey: deps.credentialKey,
    tighten: deps.tighten,
    now: () => deps.clock.now().getTime(),
    ...(deps.metrics ? { onRefused: deps.metrics.rateLimited } : {}),
  });
  // Balancers probe readiness from one address several times a second: a 429 there would take a
  // healthy instance out of service. /healthz is answered before this chain altogether.
  app.use((c, next) => (c.req.path === '/readyz' ? next() : limit(c, next)));
  app.use('/v1/*', cors.preflight);
  const limitBody = bodyLimit({
    maxSize: config.BODY_LIMIT_BYTES,
    onError: async (c) => {
      await discardUnreadBody(c);
      throw new AppError(
        'PAYLOAD_TOO_LARGE',
        `The request body is larger than ${config.BODY_LIMIT_BYTES} bytes.`,
      );
    },
  });
  const limitBodies: MiddlewareHandler<AppEnv> = (c, next) => {
    // A body framed by Content-Length within the limit, or a GET without one, passes on the headers
    // alone: Hono's check would build a full Fetch Request for every call, GETs included, and the
    // profile showed that cost. Chunked, unannounced and oversized bodies go through the real check.
    if (c.req.header('transfer-encoding') === undefined) {
      const length = c.req.header('content-length');
      if (length !== undefined)
        return Number(length) <= config.BODY_LIMIT_BYTES ? next() : limitBody(c, next);
      // Neither header: on the wire there is no body. In-process requests may carry one unannounced.
      if (c.req.method === 'GET' || c.req.method === 'HEAD') return next();
    }
    return limitBody(c, next);
  };
  app.use('/v1/*', limitBodies);
  // The OAuth endpoints (token, registration, revocation) take bodies too, under the same limit.
  app.use('/oauth/*', limitBodies);
  app.use('/v1/*', requireJsonBody(FORM_PATHS));
  // Everywhere, not only /v1: admin, portal and OAuth paths carry ids and text to the database too.
  app.use(refuseNul());

  app.route(
    '/',
    createHealthRoutes({
      ping: deps.ping,
      ...(deps.pingRedis ? { pingRedis: deps.pingRedis } : {}),
      dataDir: { path: config.DATA_DIR, minFreeBytes: config.READY_MIN_FREE_MB * 1024 * 1024 },
      isShuttingDown: deps.isShuttingDown ?? (() => false),
    }),
  );
  app.route('/', createDocsRoutes());
  for (const router of deps.rootRoutes ?? []) app.route('/', router);
  for (const router of deps.v1Routes ?? []) app.route('/v1', router);

  app.openAPIRegistry.registerComponent('securitySchemes', 'bearerAuth', {
    type: 'http',
    scheme: 'bearer',
    description:
      'An access token (`at+jwt`), an embed token (`embed+jwt`) or a personal API key (`svc_pat_…`), as each endpoint says.',
  });
  // The public document at /v1/openapi.json; the portal's and the admin API's beside it.
  registerApiDocuments(app, config.publicApiUrl);

  app.notFound((c) => {
    const methods = allowedMethods(app.routes, c.req.path);
    if (methods.length > 0) {
      c.header('Allow', methods.join(', '));
      return errorResponse(c, new AppError('METHOD_NOT_ALLOWED', `${c.req.method} is not allowed here.`));
    }
    return errorResponse(c, new AppError('NOT_FOUND', `No route for ${c.req.method} ${c.req.path}.`));
  });
  app.onError(handleError);
  if (!deps.licensing) return app;
  const lane = licenseStatusLane({
    deps: deps.licensing,
    limiter: deps.rateLimiter,
    cors,
    logger: deps.logger,
    metrics: deps.metrics,
    trustProxy: config.TRUST_PROXY,
    now: () => deps.clock.now().getTime(),
  });
  return Object.assign(app, { lane });
}
