import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_CHANGES, type RuleChange } from '../../calculators/rules-changelog.ts';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import { needs } from '../test-support/needs.ts';
import {
  runServerProcessToExit,
  type ServerProcess,
  startServerProcess,
  stopServerProcess,
} from '../test-support/server-process.ts';

/** The pids of a process's children (its cluster workers), from /proc; none once it is gone. */
function childrenOf(pid: number): number[] {
  try {
    return readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').split(/\s+/).filter(Boolean).map(Number);
  } catch {
    return [];
  }
}

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

async function until(check: () => boolean, what: string, timeoutMs = 60_000): Promise<void> {
  const started = Date.now();
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/**
 * One request on a connection of its own (no keep-alive agent): the cluster hands each new
 * connection to the next worker, so a run of these reaches every worker.
 */
function fresh(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: unknown } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const body = init.body === undefined ? undefined : JSON.stringify(init.body);
    const req = request(
      url,
      {
        method: init.method ?? 'GET',
        agent: false,
        headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...init.headers },
      },
      (res) => {
        let text = '';
        res.setEncoding('utf8');
        res.on('data', (d) => {
          text += d;
        });
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body: text }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * A POST on its own connection with `Expect: 100-continue`: half the body goes once the server has
 * read the headers, the rest on `finish()`.
 */
function halfSentPost(url: string, json: unknown) {
  const body = JSON.stringify(json);
  const half = Math.floor(body.length / 2);
  const req = request(url, {
    method: 'POST',
    agent: false,
    headers: {
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(body),
      expect: '100-continue',
    },
  });
  const answer = new Promise<{ status: number; body: string }>((resolve, reject) => {
    req.on('response', (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (d) => {
        text += d;
      });
      res.on('end', () => resolve({ status: res.statusCode!, body: text }));
    });
    req.on('error', reject);
  });
  const headersRead = new Promise<void>((resolve) =>
    req.on('continue', () => {
      req.write(body.slice(0, half));
      resolve();
    }),
  );
  req.flushHeaders();
  return { headersRead, answer, finish: () => req.end(body.slice(half)) };
}

describe('WEB_CONCURRENCY without the scale-out services', () => {
  it('refuses to start several processes on the embedded database, saying what is missing', async () => {
    const end = await runServerProcessToExit({ WEB_CONCURRENCY: '2', DATABASE_URL: '', REDIS_URL: '' });
    expect(end.code, end.output).toBe(1);
    expect(end.output.trim()).toMatch(
      /^Invalid configuration: WEB_CONCURRENCY 2 needs DATABASE_URL and REDIS_URL/,
    );
    expect(end.output).not.toMatch(/\bat .+:\d+/);
  }, 60_000);
});

/**
 * `WEB_CONCURRENCY=2` on PostgreSQL and Redis: one primary process and two workers sharing the
 * ports. A worker that dies is replaced while the other answers; rate limits are counted across
 * workers; SIGTERM to the primary drains every worker and loses no request.
 */
const EXTRA_RULE_CHANGE: RuleChange = {
  id: 'estate-tax/2026-12-20/test-cluster',
  date: '2026-12-20',
  kind: 'corrected',
  figure: 'New York basic exclusion amount, deaths in 2027 (test)',
  before: 'Not published',
  after: '$7,500,000',
  status: 'primary',
  source: { title: 'A test release' },
  calculators: ['estate-tax'],
  states: ['NY'],
  summary: 'A test release: New York’s 2027 amount.',
};

needs('postgres', 'redis').describe(
  'worker processes on one port (PostgreSQL, Redis)',
  { timeout: 180_000 },
  () => {
    const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
    const metricsToken = `metrics-${randomBytes(16).toString('hex')}`;
    let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let server: ServerProcess | undefined;
    let accessJwt: string;
    let licenseKey: string;

    beforeAll(async () => {
      pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      server = await startServerProcess({
        DATABASE_URL: pg.url,
        REDIS_URL: process.env.REDIS_URL!,
        REDIS_KEY_PREFIX: `svc-test-${randomBytes(6).toString('hex')}:`,
        SECRET_KEY: randomBytes(32).toString('hex'),
        ADMIN_TOKEN: adminToken,
        SEED_DEMO: 'false',
        WEB_CONCURRENCY: '2',
        METRICS_TOKEN: metricsToken,
        // A release with one extra rule change: both workers start at once, one announces it.
        SVC_TEST_RULE_CHANGES: JSON.stringify([EXTRA_RULE_CHANGE]),
        // Info: each worker logs the rule changes it recorded (and so announced).
        LOG_LEVEL: 'info',
      });
      const admin = { authorization: `Bearer ${adminToken}` };
      const account = JSON.parse(
        (
          await fresh(`${server.url}/admin/v1/accounts`, {
            method: 'POST',
            headers: admin,
            body: { name: 'Twin LLP' },
          })
        ).body,
      );
      const created = JSON.parse(
        (
          await fresh(`${server.url}/admin/v1/licenses`, {
            method: 'POST',
            headers: admin,
            body: {
              accountId: account.account.id,
              plan: 'pro',
              seats: 3,
              domains: ['twinlaw.com'],
              paidThrough: '2099-01-01',
            },
          })
        ).body,
      );
      const set = await fresh(`${server.url}/v1/api/licenses/activate`, {
        method: 'POST',
        body: { licenseKey: created.licenseKey, siteDomain: 'twinlaw.com' },
      });
      expect(set.status, set.body).toBe(200);
      accessJwt = JSON.parse(set.body).accessJwt;
      licenseKey = created.licenseKey;
    }, 180_000);

    afterAll(async () => {
      await stopServerProcess(server, 'SIGKILL');
      for (const pid of server ? childrenOf(server.child.pid!).filter(alive) : [])
        process.kill(pid, 'SIGKILL');
      await pg?.drop();
    });

    it('records and announces each rule change once across the two workers', () => {
      const recorded = server!
        .output()
        .split('\n')
        .filter((line) => line.includes('"msg":"rule change recorded"'))
        .map((line) => (JSON.parse(line) as { change: string }).change);
      expect(recorded.filter((id) => id === EXTRA_RULE_CHANGE.id)).toHaveLength(1);
      expect(recorded.sort()).toEqual([...RULE_CHANGES.map((c) => c.id), EXTRA_RULE_CHANGE.id].sort());
    });

    it('prints one banner for two worker processes', () => {
      const out = server!.output();
      expect(out.match(/svc is running/g)).toHaveLength(1);
      expect(out).toContain('2 worker processes (WEB_CONCURRENCY) share these ports.');
      expect(childrenOf(server!.child.pid!)).toHaveLength(2);
    });

    it('counts one rate limit across the workers', async () => {
      const remaining: number[] = [];
      for (let i = 0; i < 6; i++) {
        const res = await fresh(`${server!.url}/v1/api/licenses/status`, {
          headers: { authorization: `Bearer ${accessJwt}` },
        });
        expect(res.status, res.body).toBe(200);
        remaining.push(Number(res.headers['x-ratelimit-remaining']));
      }
      // Each answer, whichever worker gave it, sees the count of all the requests before it.
      for (let i = 1; i < remaining.length; i++) expect(remaining[i]).toBe(remaining[i - 1]! - 1);
    });

    it('answers a scrape with every worker’s figures, whichever worker takes it', async () => {
      // So far: two admin calls and one activation (setup), six status calls (the test above).
      const scrapes = await Promise.all(
        [0, 1, 2, 3].map(() =>
          fresh(`${server!.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } }),
        ),
      );
      for (const scrape of scrapes) {
        expect(scrape.status).toBe(200);
        const counts = [...scrape.body.matchAll(/^svc_http_requests_total\{[^}]*\} (\d+)$/gm)].map((m) =>
          Number(m[1]),
        );
        expect(
          counts.reduce((a, b) => a + b, 0),
          scrape.body,
        ).toBe(9);
        // A count in the database is reported once, not once per worker.
        expect(scrape.body).toMatch(/^svc_outbox_pending_webhooks 0$/m);
        expect(scrape.body).toMatch(/^svc_db_pool_total [1-9]/m);
      }
    });

    it('replaces a worker that dies, and the other answers meanwhile', async () => {
      const [victim, survivor] = childrenOf(server!.child.pid!);
      process.kill(victim!, 'SIGKILL');
      await until(() => !alive(victim!), 'the killed worker to be gone');
      for (let i = 0; i < 4; i++)
        expect(
          (
            await fresh(`${server!.url}/v1/api/licenses/status`, {
              headers: { authorization: `Bearer ${accessJwt}` },
            })
          ).status,
        ).toBe(200);
      await until(
        () => /svc worker \d is serving again/.test(server!.output()),
        'a replacement worker serving',
      );
      const now = childrenOf(server!.child.pid!);
      expect(now).toContain(survivor);
      expect(now).not.toContain(victim);
      expect(server!.output()).toMatch(/svc worker \d died \(signal SIGKILL\); starting another/);
      // The replacement serves too: every fresh connection gets an answer.
      for (let i = 0; i < 6; i++) expect((await fresh(`${server!.url}/readyz`)).status).toBe(200);
    });

    it('drains every worker on SIGTERM to the primary: requests in flight are answered, then all exit', async () => {
      const workers = childrenOf(server!.child.pid!);
      // Half a body each, on connections of their own: surely in flight, spread over both workers.
      const slow = Array.from({ length: 4 }, () =>
        halfSentPost(`${server!.url}/v1/api/licenses/activate`, { licenseKey, siteDomain: 'twinlaw.com' }),
      );
      await Promise.all(slow.map((s) => s.headersRead));
      const stopped = stopServerProcess(server, 'SIGTERM');
      await until(
        () => server!.output().includes('SIGTERM received: draining 2 workers'),
        'the primary to pass SIGTERM on',
      );
      await new Promise((r) => setTimeout(r, 200));
      for (const s of slow) s.finish();
      const answers = await Promise.all(slow.map((s) => s.answer));
      for (const a of answers) expect(a.status, a.body).toBe(200);
      expect(await stopped, server!.output().slice(-1500)).toEqual({ code: 0, signal: null });
      expect(workers.filter(alive)).toEqual([]);
    });
  },
);

needs('postgres', 'redis').describe(
  'a worker in a crash loop (PostgreSQL, Redis)',
  { timeout: 180_000 },
  () => {
    let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let server: ServerProcess | undefined;

    afterAll(async () => {
      const workers = server ? childrenOf(server.child.pid!) : [];
      await stopServerProcess(server, 'SIGKILL');
      for (const pid of workers.filter(alive)) process.kill(pid, 'SIGKILL');
      await pg?.drop();
    });

    it('stops the primary with a message when replacements die right after starting, three in a row', async () => {
      pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      server = await startServerProcess({
        DATABASE_URL: pg.url,
        REDIS_URL: process.env.REDIS_URL!,
        REDIS_KEY_PREFIX: `svc-test-${randomBytes(6).toString('hex')}:`,
        SECRET_KEY: randomBytes(32).toString('hex'),
        SEED_DEMO: 'false',
        WEB_CONCURRENCY: '2',
      });
      const primary = server.child.pid!;
      const [victim, survivor] = childrenOf(primary);
      const seen = new Set([victim!, survivor!]);
      // Each replacement is killed as soon as it is forked: a worker that cannot stay up.
      let target = victim!;
      let kills = 0;
      while (server.child.exitCode === null && kills < 5) {
        process.kill(target, 'SIGKILL');
        kills++;
        await until(
          () => server!.child.exitCode !== null || childrenOf(primary).some((pid) => !seen.has(pid)),
          'a replacement worker or the primary’s end',
          30_000,
        );
        const replacement = childrenOf(primary).find((pid) => !seen.has(pid));
        if (replacement === undefined) break;
        seen.add(replacement);
        target = replacement;
      }
      await until(() => server!.child.exitCode !== null, 'the primary to stop', 30_000);
      const end = await server.exited;
      const output = server.output();
      expect(end.code, output.slice(-1500)).toBe(1);
      expect(output).toMatch(
        /svc worker \d is in a crash loop: it died 3 times in a row within 10 s of starting \(last: signal SIGKILL\); stopping/,
      );
      expect(output).toMatch(/starting another in 500 ms/);
      expect(kills).toBeLessThanOrEqual(4);
      // The survivor was stopped with the rest.
      await until(() => !alive(survivor!), 'the other worker to exit');
    });
  },
);
