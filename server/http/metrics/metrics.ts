import cluster from 'node:cluster';
import type { MiddlewareHandler } from 'hono';
import { AggregatorRegistry, Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { safeEqual } from '../../lib/constant-time.ts';
import { AppError } from '../../lib/errors.ts';
import type { AppEnv } from '../app-env.ts';
import { rateLimitGroupOf } from '../rate-limit/rate-limit-groups.ts';

/** A gauge read when Prometheus scrapes (outbox depth, pool use, cache sizes). */
type GaugeSource = () => number | Promise<number>;

export interface Metrics {
  registry: Registry;
  /** One answered request (the request frame, `request-frame.ts`, tells it): its count and latency. */
  request(method: string, path: string, status: number, seconds: number): void;
  rateLimited(group: string): void;
  cache(name: string, hit: boolean): void;
  /**
   * `shared`: the figure is the same whichever process reads it (a count in the database), so the
   * workers of one primary report it once (max), not summed.
   */
  gauge(name: string, help: string, read: GaugeSource, opts?: { shared?: boolean }): void;
  /** The Prometheus text: this process's, or under a cluster primary every worker's, aggregated. */
  text(): Promise<string>;
}

/**
 * Route groups keep the label set small and free of ids: the rate-limit group for the public API,
 * then one group per surface.
 */
export function routeGroupOf(method: string, path: string): string {
  if (path.startsWith('/v1/mcp')) return 'mcp';
  if (path.startsWith('/admin/')) return 'admin';
  if (path.startsWith('/v1/portal') || path.startsWith('/portal')) return 'portal';
  if (path.startsWith('/v1/webhooks')) return 'webhooks';
  if (path.startsWith('/v1/')) return rateLimitGroupOf(method, path);
  return 'other';
}

/**
 * Prometheus metrics on a registry of this app's own (two apps in one test process must not share
 * one). Request counts and latency per route group and status class, rate-limit refusals, cache
 * hits and misses, and gauges that parts of the server register.
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  if (cluster.isWorker) {
    // Answers the primary's collection requests (prom-client's cluster protocol) with this registry.
    new AggregatorRegistry();
    AggregatorRegistry.setRegistries([registry]);
  }
  const requests = new Counter({
    name: 'svc_http_requests_total',
    help: 'HTTP requests by route group, method and status class.',
    labelNames: ['group', 'method', 'status'] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: 'svc_http_request_duration_seconds',
    help: 'Time to the response, by route group.',
    labelNames: ['group'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const refusals = new Counter({
    name: 'svc_rate_limit_refusals_total',
    help: 'Requests refused with 429, by rate-limit group.',
    labelNames: ['group'] as const,
    registers: [registry],
  });
  // Cache lookups are counted in plain numbers (a status answer makes six of them, and three
  // labelled counter increments each showed in the profile) and handed to Prometheus at a scrape.
  const lookups = new Map<string, { hit: number; miss: number }>();
  const fromLookups = <L extends string>(
    add: (counter: Counter<L>, cache: string, counts: { hit: number; miss: number }) => void,
  ) =>
    function (this: Counter<L>) {
      this.reset();
      for (const [cache, counts] of lookups) add(this, cache, counts);
    };
  new Counter({
    name: 'svc_cache_lookups_total',
    help: 'Cache lookups by cache and result (hit or miss).',
    labelNames: ['cache', 'result'] as const,
    registers: [registry],
    collect: fromLookups((counter, cache, { hit, miss }) => {
      counter.inc({ cache, result: 'hit' }, hit);
      counter.inc({ cache, result: 'miss' }, miss);
    }),
  });
  new Counter({
    name: 'svc_cache_hits_total',
    help: 'Lookups answered from a cache (verified tokens, licenses, keys, activations), by cache.',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect: fromLookups((counter, cache, { hit }) => counter.inc({ cache }, hit)),
  });
  new Counter({
    name: 'svc_cache_misses_total',
    help: 'Lookups that went to the database or verified a signature, by cache.',
    labelNames: ['cache'] as const,
    registers: [registry],
    collect: fromLookups((counter, cache, { miss }) => counter.inc({ cache }, miss)),
  });
  return {
    registry,
    request(method, path, status, seconds) {
      const group = routeGroupOf(method, path);
      requests.inc({ group, method, status: `${Math.floor(status / 100)}xx` });
      latency.observe({ group }, seconds);
    },
    rateLimited: (group) => refusals.inc({ group }),
    cache: (cache, hit) => {
      let counts = lookups.get(cache);
      if (!counts) {
        counts = { hit: 0, miss: 0 };
        lookups.set(cache, counts);
      }
      if (hit) counts.hit++;
      else counts.miss++;
    },
    gauge(name, help, read, opts = {}) {
      new Gauge({
        name,
        help,
        registers: [registry],
        aggregator: opts.shared ? 'max' : 'sum',
        async collect() {
          this.set(await read());
        },
      });
    },
    text: () => (cluster.isWorker ? askPrimaryForMetrics() : registry.metrics()),
  };
}

interface MetricsAnswer {
  svc: 'metrics';
  id: number;
  text?: string;
}

const METRICS_QUESTION = 'metrics?';
const pending = new Map<number, (text: string | undefined) => void>();
let nextQuestion = 0;
let listening = false;

/**
 * A scrape reaches one worker; the primary (cluster.ts) collects every worker's registry and sums
 * counters and histograms, so Prometheus sees the service, not whichever worker took the connection.
 */
function askPrimaryForMetrics(): Promise<string> {
  if (!listening) {
    listening = true;
    process.on('message', (m: Partial<MetricsAnswer>) => {
      if (m?.svc !== 'metrics' || typeof m.id !== 'number') return;
      pending.get(m.id)?.(m.text);
      pending.delete(m.id);
    });
  }
  const id = nextQuestion++;
  return new Promise((resolve, reject) => {
    const unavailable = () =>
      new AppError('SERVICE_UNAVAILABLE', 'The metrics of the other workers could not be collected.');
    const timer = setTimeout(() => {
      pending.delete(id);
      reject(unavailable());
    }, 6_000);
    pending.set(id, (text) => {
      clearTimeout(timer);
      if (text === undefined) reject(unavailable());
      else resolve(text);
    });
    process.send?.({ svc: METRICS_QUESTION, id });
  });
}

/** In the cluster primary: answers the workers' `askPrimaryForMetrics` with all workers' figures. */
export function serveClusterMetrics(): void {
  const aggregator = new AggregatorRegistry();
  cluster.on('message', (worker, m: { svc?: unknown; id?: unknown }) => {
    if (m?.svc !== METRICS_QUESTION || typeof m.id !== 'number') return;
    const id = m.id;
    aggregator.clusterMetrics().then(
      (text) => worker.send({ svc: 'metrics', id, text } satisfies MetricsAnswer),
      () => worker.send({ svc: 'metrics', id } satisfies MetricsAnswer),
    );
  });
}

/**
 * `GET /metrics` exists only when METRICS_TOKEN is set (404 otherwise, so a deployment exposes
 * nothing by default) and answers only to that bearer token.
 */
export function metricsHandler(metrics: Metrics, token: string): MiddlewareHandler<AppEnv> {
  return async (c) => {
    const bearer = /^Bearer (.+)$/i.exec(c.req.header('authorization') ?? '')?.[1];
    if (!bearer || !safeEqual(bearer, token)) {
      throw new AppError('UNAUTHORIZED', 'The metrics token is missing or wrong.', {
        headers: { 'WWW-Authenticate': 'Bearer realm="svc-metrics"' },
      });
    }
    c.header('Cache-Control', 'no-store');
    return c.body(await metrics.text(), 200, { 'Content-Type': metrics.registry.contentType });
  };
}
