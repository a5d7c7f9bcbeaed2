import { randomBytes } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import {
  createFirm,
  FIRM_ORIGIN,
  type Firm,
  openEmbedSession,
  postJson,
  postLiveLead,
} from '../test-support/firm-over-http.ts';
import { needs } from '../test-support/needs.ts';
import { freshDataDir } from '../test-support/pglite-template.ts';
import { type ServerProcess, startServerProcess, stopServerProcess } from '../test-support/server-process.ts';

/**
 * docs/funnel.md's promise, on a real server process: a `kill -9` loses at most the funnel counts
 * since the instance's last flush, and what was flushed is neither lost nor counted twice after a
 * restart on the same data. The flush interval is 1 s here (FUNNEL_FLUSH_SECONDS) and the server
 * logs each flush at debug level, so the test knows exactly which counts were written before the
 * kill instead of guessing from the clock.
 */
const PAGE = `${FIRM_ORIGIN}/estate-planning`;

interface Counts {
  views: number;
  calculations: number;
  leads: number;
}

/** The funnel events this process has written so far, from its debug log's flush lines. */
const eventsWritten = (server: ServerProcess) =>
  server
    .output()
    .split('\n')
    .filter((line) => line.includes('"msg":"funnel counts written"'))
    .reduce((n, line) => n + (JSON.parse(line) as { events: number }).events, 0);
const sum = (c: Counts) => c.views + c.calculations + c.leads;

async function until(what: string, ok: () => boolean, timeoutMs = 10_000): Promise<void> {
  const started = Date.now();
  while (!ok()) {
    if (Date.now() - started > timeoutMs) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** What a visitor's widget does: the view signal, then calculations and a lead as asked. */
async function visit(server: ServerProcess, firm: Firm, counts: Counts, token?: string) {
  const embed = token ?? (await openEmbedSession(server.url, firm.publishableKey));
  const auth = { authorization: `Bearer ${embed}` };
  const send = async (path: string, body: unknown, status: number) =>
    expect((await postJson(`${server.url}${path}`, body, auth)).status, path).toBe(status);
  for (let i = 0; i < counts.views; i++) await send('/v1/api/views', { calculator: 'rmd', page: PAGE }, 204);
  for (let i = 0; i < counts.calculations; i++)
    await send(
      '/v1/api/calc/estimate',
      { calculator: 'rmd', inputs: { balance: 500_000 + i, age: 75 }, page: PAGE },
      200,
    );
  for (let i = 0; i < counts.leads; i++)
    expect((await postLiveLead(server.url, embed, `funnel-${randomBytes(4).toString('hex')}`)).status).toBe(
      201,
    );
  return embed;
}

const add = (a: Counts, b: Counts): Counts => ({
  views: a.views + b.views,
  calculations: a.calculations + b.calculations,
  leads: a.leads + b.leads,
});

async function funnelTotals(server: ServerProcess, firm: Firm): Promise<Counts> {
  const res = await fetch(`${server.url}/v1/api/funnel`, {
    headers: { authorization: `Bearer ${firm.apiKey}` },
  });
  expect(res.status).toBe(200);
  const { totals } = (await res.json()) as { totals: Counts };
  return { views: totals.views, calculations: totals.calculations, leads: totals.leads };
}

async function killAfterFlush(env: Record<string, string>, shared: boolean): Promise<void> {
  const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
  const fullEnv = {
    ADMIN_TOKEN: adminToken,
    SECRET_KEY: randomBytes(32).toString('hex'),
    SEED_DEMO: 'false',
    RATE_LIMIT_SCALE: '1000',
    DELIVERY_WORKER: 'false',
    FUNNEL_FLUSH_SECONDS: '1',
    LOG_LEVEL: 'debug',
    ...env,
  };
  let server = await startServerProcess(fullEnv);
  try {
    const firm = await createFirm(server.url, adminToken, 'Funnel Crash Test');
    // Before: three visitors; one calculates twice and asks to be contacted.
    const first = await visit(server, firm, { views: 1, calculations: 2, leads: 1 });
    await visit(server, firm, { views: 1, calculations: 0, leads: 0 });
    await visit(server, firm, { views: 1, calculations: 1, leads: 0 });
    const flushed: Counts = { views: 3, calculations: 3, leads: 1 };
    await until('their flush', () => eventsWritten(server) >= sum(flushed));
    expect(eventsWritten(server)).toBe(sum(flushed));

    // After the last flush: a fourth visitor, and the first one's widget signalling again.
    const pending: Counts = { views: 1, calculations: 2, leads: 1 };
    await visit(server, firm, pending);
    await visit(server, firm, { views: 1, calculations: 0, leads: 0 }, first);
    const { signal } = await stopServerProcess(server, 'SIGKILL');
    expect(signal).toBe('SIGKILL');
    // A flush may have fallen between the fourth visit and the kill: what it wrote is kept, the
    // rest is what the crash lost. Nothing before it may be lost, nothing counted twice.
    const late = eventsWritten(server) - sum(flushed);

    server = await startServerProcess(fullEnv);
    const after = await funnelTotals(server, firm);
    expect(sum(after)).toBe(sum(flushed) + late);
    for (const step of ['views', 'calculations', 'leads'] as const) {
      expect(after[step]).toBeGreaterThanOrEqual(flushed[step]);
      expect(after[step]).toBeLessThanOrEqual(flushed[step] + pending[step]);
    }
    if (late === 0) expect(after).toEqual(flushed);
    // The leads themselves are stored on the request: none lost, whatever the funnel lost.
    const stored = await fetch(`${server.url}/v1/api/leads`, {
      headers: { authorization: `Bearer ${firm.apiKey}` },
    });
    expect(((await stored.json()) as { data: unknown[] }).data).toHaveLength(2);

    // Restarted: new traffic adds to what was stored, nothing is counted twice.
    const later: Counts = { views: 1, calculations: 1, leads: 0 };
    await visit(server, firm, later);
    // With Redis the first visitor's widget is remembered across the restart; in memory it is not.
    await visit(server, firm, { views: 1, calculations: 0, leads: 0 }, first);
    const end = await funnelTotals(server, firm);
    expect(end).toEqual(add(add(after, later), { views: shared ? 0 : 1, calculations: 0, leads: 0 }));
  } finally {
    await stopServerProcess(server);
  }
}

describe('a crash loses at most the funnel counts since the last flush', () => {
  it('embedded (PGlite)', async () => {
    await killAfterFlush(
      { DATA_DIR: freshDataDir('svc-funnel-crash-'), DATABASE_URL: '', REDIS_URL: '' },
      false,
    );
  }, 120_000);
});

needs('postgres', 'redis').describe(
  'a crash loses at most the funnel counts since the last flush (PostgreSQL, Redis)',
  () => {
    let drop: (() => Promise<void>) | undefined;
    afterAll(async () => drop?.());

    it('PostgreSQL and Redis', async () => {
      const pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      await pg.database.close();
      drop = pg.drop;
      await killAfterFlush(
        {
          DATABASE_URL: pg.url,
          REDIS_URL: process.env.REDIS_URL!,
          REDIS_KEY_PREFIX: `svc-test-${randomBytes(6).toString('hex')}:`,
        },
        true,
      );
    }, 120_000);
  },
);
