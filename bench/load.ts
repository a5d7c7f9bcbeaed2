import autocannon, { type Request } from 'autocannon';

export interface LoadTarget {
  method: 'GET' | 'POST';
  /** Path on the server, e.g. `/v1/api/licenses/status`. */
  path: string;
  /** Called for every request with a running index: spreads requests over tokens and licenses. */
  vary?: (i: number) => { headers?: Record<string, string>; body?: unknown };
}

export interface LoadFigures {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  requests: number;
  /** Answers outside 2xx, socket errors and timeouts: a bench with any of them failed. */
  failures: string[];
}

/**
 * One autocannon run: `connections` keep-alive connections for `seconds`; with `rate` the total
 * request rate is held there (for latency at a given load) instead of going as fast as it can.
 */
export async function load(
  baseUrl: string,
  target: LoadTarget,
  opts: { connections: number; seconds: number; rate?: number; amount?: number },
): Promise<LoadFigures> {
  let i = 0;
  const request: Request = {
    method: target.method,
    path: target.path,
    ...(target.vary
      ? {
          setupRequest: (req) => {
            const v = target.vary!(i++);
            return {
              ...req,
              headers: { ...(req.headers ?? {}), ...(v.headers ?? {}) },
              ...(v.body === undefined ? {} : { body: JSON.stringify(v.body) }),
            };
          },
        }
      : {}),
    headers: target.method === 'POST' ? { 'content-type': 'application/json' } : {},
  };
  const result = await autocannon({
    url: baseUrl,
    connections: opts.connections,
    duration: opts.seconds,
    ...(opts.amount ? { amount: opts.amount } : {}),
    timeout: 10,
    requests: [request],
    ...(opts.rate ? { overallRate: opts.rate } : {}),
  });
  const failures: string[] = [];
  const statuses = Object.entries(result.statusCodeStats ?? {}).filter(([code]) => !code.startsWith('2'));
  for (const [code, { count }] of statuses) failures.push(`${count}× HTTP ${code}`);
  if (result.errors) failures.push(`${result.errors} socket errors`);
  if (result.timeouts) failures.push(`${result.timeouts} timeouts`);
  if (result.non2xx && statuses.length === 0) failures.push(`${result.non2xx} non-2xx answers`);
  return {
    rps: Math.round(result.requests.total / result.duration),
    p50Ms: result.latency.p50,
    p99Ms: result.latency.p99,
    requests: result.requests.total,
    failures,
  };
}
