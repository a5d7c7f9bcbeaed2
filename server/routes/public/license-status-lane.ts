import type { Logger } from 'pino';
import { authenticate, tokenKindOf } from '../../domain/access/authenticate.ts';
import { type Principal, rateKeyOf } from '../../domain/credentials/principal.ts';
import type { LicensingDeps } from '../../domain/deps.ts';
import { licenseStatusOf } from '../../domain/licensing/status-view.ts';
import { ALL_KINDS } from '../../http/auth/auth.ts';
import type { CorsPolicy } from '../../http/cors/cors-policy.ts';
import { SECURITY_HEADERS } from '../../http/headers/security-headers.ts';
import type { Metrics } from '../../http/metrics/metrics.ts';
import { rateLimitHeaders } from '../../http/rate-limit/rate-limit.ts';
import { rateLimitGroupOf } from '../../http/rate-limit/rate-limit-groups.ts';
import type { RateLimiter } from '../../http/rate-limit/rate-limiter.ts';
import { clientIpOf, ipRateKey, type TrustProxy } from '../../http/requests/client-ip.ts';
import { type HandedOn, handOn } from '../../http/requests/handed-on.ts';
import type { NodeLane } from '../../http/requests/node-front.ts';
import { requestIdOf } from '../../http/requests/request-id.ts';
import { accessLine } from '../../http/requests/request-log.ts';

/** The route's canonical path; `/api/licenses/status` is its alias (`canonicalPath` in app.ts). */
const PATH = '/v1/api/licenses/status';
const ALIAS = '/api/licenses/status';
const BEARER = /^Bearer\s+(\S+)\s*$/i;
/** The node adapter's `reValidHost`: a Host it takes as it is, without parsing a URL. */
const FAST_HOST = /^[a-z0-9._-]+(?::(?:[1-5]\d{3,4}|[6-9]\d{3}))?$/;
const NAME_AND_PORT = /^[a-z0-9._-]+(?::\d{1,5})?$/i;

/**
 * A Host the node adapter surely accepts: its fast pattern, or a name (and port) that the URL
 * parser keeps as it is (the adapter answers 400 when the parsed host differs: `1.2.3:80`, a port
 * over 65535). Any other Host (absent, with a path, userinfo, a space, an IPv6 literal) goes to
 * the chain, where the adapter decides, as it would without the lane.
 */
function plainHost(host: string | undefined): boolean {
  if (!host) return false;
  if (FAST_HOST.test(host)) return true;
  if (!NAME_AND_PORT.test(host)) return false;
  try {
    return new URL(`http://${host}`).hostname === host.replace(/:\d+$/, '').toLowerCase();
  } catch {
    return false;
  }
}
/** The headers every status answer carries as they are. */
const FIXED = [...Object.entries(SECURITY_HEADERS).flat(), 'Content-Type', 'application/json'];

/**
 * Node keeps the first of repeated `Authorization` headers; Hono's header list joins them, and the
 * chain then refuses the bearer. Such a request goes to the chain.
 */
function repeatsAuthorization(raw: string[]): boolean {
  let seen = 0;
  for (let i = 0; i < raw.length; i += 2)
    if (raw[i]!.length === 13 && raw[i]!.toLowerCase() === 'authorization' && ++seen > 1) return true;
  return false;
}

/**
 * `GET /v1/api/licenses/status` answered on the socket (`NodeLane`): the call a site's plugin makes
 * most, and the one issue 37 measured. It runs the steps the chain runs for it, with the same
 * functions, in the same order: the request id, the bearer's verification (`authenticate`), the
 * rate-limit count keyed by the license (which also reads the caches' epoch), the status
 * (`licenseStatusOf`), and the answer with the rate-limit, CORS, security and request-id headers,
 * written in one `writeHead`, then the access line and the metrics.
 *
 * It takes only a plain request: GET on the exact path, no body headers, an access token. Anything
 * else, and every answer that is not a 200 (a token that fails, a refused count, a license gone, the
 * caches dropped by the count's epoch read), goes to Hono, which gives the documented error; what
 * the lane did is handed on, so the request is verified once and counted once.
 * `license-status-lane.test.ts` compares both ways's answers, header by header, over a socket.
 */
export function licenseStatusLane(opts: {
  deps: LicensingDeps;
  limiter: RateLimiter;
  cors: CorsPolicy;
  logger: Logger;
  metrics?: Metrics | undefined;
  trustProxy: TrustProxy;
  now: () => number;
}): NodeLane {
  const { deps, limiter, cors, metrics } = opts;
  const group = rateLimitGroupOf('GET', PATH);
  const logAccess = accessLine(opts.logger);
  return (incoming, outgoing, next, closing) => {
    const { url, headers } = incoming;
    if (incoming.method !== 'GET' || (url !== PATH && url !== ALIAS)) return next();
    // A body, or its announcement, takes the chain's checks.
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) return next();
    if (!plainHost(headers.host)) return next();
    const bearer = headers.authorization ? BEARER.exec(headers.authorization)?.[1] : undefined;
    if (!bearer || tokenKindOf(bearer) !== 'access' || repeatsAuthorization(incoming.rawHeaders))
      return next();
    const started = performance.now();
    answer(bearer).catch((error: unknown) => {
      // Nothing the steps above throw is left unhandled; this is a defect. Hono answers it afresh.
      opts.logger.error({ err: error }, 'license status lane failed');
      if (!outgoing.headersSent) next();
    });

    async function answer(token: string) {
      const generation = deps.caches?.generation() ?? 0;
      const result: Principal | Error = await authenticate(deps, token, ALL_KINDS).catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error)),
      );
      const handed: HandedOn = { credential: { result, generation } };
      if (result instanceof Error || result.kind !== 'access') return handOver(handed);
      const ip = clientIpOf(incoming.socket.remoteAddress, headerOf('x-forwarded-for'), opts.trustProxy);
      const decision = await limiter.consume(group, rateKeyOf(result, ipRateKey(ip)));
      const now = opts.now();
      handed.counted = { decision, now };
      // The count's epoch read dropped the caches: the chain verifies again, as it would.
      if (deps.caches && deps.caches.generation() !== generation) delete handed.credential;
      if (!decision.allowed || !handed.credential) return handOver(handed);
      let body: string;
      try {
        body = JSON.stringify(await licenseStatusOf(deps, result));
      } catch {
        return handOver(handed);
      }
      const requestId = requestIdOf(headerOf('x-request-id'));
      // One flat list (name, value, name, value…), which `writeHead` takes as it is.
      const list = [...FIXED];
      for (const [name, value] of Object.entries(rateLimitHeaders(decision, now))) list.push(name, value);
      const corsHeaders = cors.headersFor(headerOf('origin'), PATH, 'GET');
      for (const name in corsHeaders) list.push(name, corsHeaders[name]!);
      list.push('X-Request-Id', requestId, 'Content-Length', String(Buffer.byteLength(body)));
      if (closing()) list.push('Connection', 'close');
      outgoing.writeHead(200, list);
      outgoing.end(body);
      logAccess(requestId, 'GET', PATH, 200, started);
      metrics?.request('GET', PATH, 200, (performance.now() - started) / 1000);
    }

    function handOver(handed: HandedOn) {
      handOn(incoming, handed);
      next();
    }

    /** A header as Hono's `c.req.header` reads it (repeats joined), from node's parsed headers. */
    function headerOf(name: 'origin' | 'x-forwarded-for' | 'x-request-id'): string | undefined {
      const value = headers[name];
      return Array.isArray(value) ? value.join(', ') : value;
    }
  };
}
