import { fileURLToPath } from 'node:url';
import { startStack } from '../server/test-support/stack.ts';

export interface HttpFigures {
  name: string;
  requests: number;
  concurrency: number;
  rps: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

async function load(
  name: string,
  requests: number,
  concurrency: number,
  send: () => Promise<Response>,
): Promise<HttpFigures> {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next++ < requests) {
        const t = performance.now();
        const res = await send();
        await res.arrayBuffer();
        if (!res.ok) throw new Error(`${name}: HTTP ${res.status}`);
        latencies.push(performance.now() - t);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  const at = (q: number) =>
    Math.round(latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]! * 100) / 100;
  return {
    name,
    requests,
    concurrency,
    rps: Math.round(requests / seconds),
    p50Ms: at(0.5),
    p95Ms: at(0.95),
    p99Ms: at(0.99),
  };
}

/** Loopback load on the real server (embedded PGlite): embed session, calculation, status. */
export async function runHttpBench(requests = 2000, concurrency = 16): Promise<HttpFigures[]> {
  const stack = await startStack({ NODE_ENV: 'production', RATE_LIMIT_SCALE: '1000' });
  try {
    const api = `${stack.apiUrl}/v1/api`;
    const json = (body: unknown, headers: Record<string, string> = {}) => ({
      method: 'POST',
      body: JSON.stringify(body),
      headers: { 'content-type': 'application/json', ...headers },
    });
    const session = await (
      await fetch(
        `${api}/license/activate`,
        json({ licenseKey: stack.demo.publishableKey }, { origin: 'http://localhost' }),
      )
    ).json();
    const site = await (
      await fetch(
        `${api}/licenses/activate`,
        json({ licenseKey: stack.demo.licenseKey, siteDomain: 'localhost' }),
      )
    ).json();
    const auth = (token: string) => ({ authorization: `Bearer ${token}` });
    return [
      await load('GET /healthz', requests, concurrency, () => fetch(`${stack.apiUrl}/healthz`)),
      await load('POST /license/activate (embed session)', requests, concurrency, () =>
        fetch(
          `${api}/license/activate`,
          json({ licenseKey: stack.demo.publishableKey }, { origin: 'http://localhost' }),
        ),
      ),
      await load('GET /licenses/status', requests, concurrency, () =>
        fetch(`${api}/licenses/status`, { headers: auth(site.accessJwt) }),
      ),
      await load('POST /calc/estimate', requests, concurrency, () =>
        fetch(
          `${api}/calc/estimate`,
          json(
            { calculator: 'estate-tax', state: 'NY', inputs: { estateValue: 8_000_000 } },
            auth(session.token),
          ),
        ),
      ),
    ];
  } finally {
    await stack.close();
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  for (const f of await runHttpBench()) {
    console.log(
      `${f.name.padEnd(40)} ${String(f.rps).padStart(6)} req/s  p50 ${f.p50Ms} ms  p95 ${f.p95Ms} ms  p99 ${f.p99Ms} ms  (${f.requests} req, ${f.concurrency} conc.)`,
    );
  }
}
