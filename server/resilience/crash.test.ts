import { randomBytes, randomInt } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import {
  compareStoredLeads,
  createFirm,
  type Firm,
  listAllLeads,
  openEmbedSession,
  postLead,
} from '../test-support/firm-over-http.ts';
import { needs } from '../test-support/needs.ts';
import { freshDataDir } from '../test-support/pglite-template.ts';
import { type ServerProcess, startServerProcess, stopServerProcess } from '../test-support/server-process.ts';

const ROUNDS = 3;
const WORKERS = 6;

/**
 * The kill times are random but repeatable: printed with the seed they came from, and
 * `SVC_CRASH_SEED=<seed>` gives the same ones again.
 */
const SEED = process.env.SVC_CRASH_SEED ? Number(process.env.SVC_CRASH_SEED) : randomInt(2 ** 31);
if (!Number.isSafeInteger(SEED))
  throw new Error(`SVC_CRASH_SEED must be an integer, not ${process.env.SVC_CRASH_SEED}`);

/** mulberry32: a small seeded generator of numbers in [0, 1); one per backend, so order does not matter. */
function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * Streams leads with Idempotency-Keys from several concurrent clients until the server dies.
 * Returns the keys answered 201 (with their lead ids) and the keys sent without an answer.
 */
async function streamUntilKilled(
  server: ServerProcess,
  token: string,
  prefix: string,
  killAfterMs: number,
): Promise<{ acknowledged: Map<string, string>; unanswered: Set<string>; unexpected: string[] }> {
  const acknowledged = new Map<string, string>();
  const unanswered = new Set<string>();
  const unexpected: string[] = [];
  let next = 0;
  let dead = false;
  let firstAck: () => void = () => {};
  const acked = new Promise<void>((resolve) => {
    firstAck = resolve;
  });
  const worker = async () => {
    while (!dead) {
      const key = `${prefix}-${next++}`;
      unanswered.add(key);
      try {
        const res = await postLead(server.url, token, key);
        const body = await res.json();
        if (res.status !== 201) {
          unexpected.push(`${key}: ${res.status} ${JSON.stringify(body)}`);
          continue;
        }
        unanswered.delete(key);
        acknowledged.set(key, body.leadId);
        firstAck();
      } catch {
        // The connection died with the process: this key's answer never came.
        dead = true;
      }
    }
  };
  const workers = Array.from({ length: WORKERS }, worker);
  await acked;
  await new Promise((r) => setTimeout(r, killAfterMs));
  await stopServerProcess(server, 'SIGKILL');
  await Promise.all(workers);
  return { acknowledged, unanswered, unexpected };
}

/**
 * Every round: stream leads, SIGKILL the server at a random moment, restart it on the same data,
 * retry the keys that got no answer, and compare what the clients were told with what is stored.
 */
async function crashRounds(backend: string, env: Record<string, string>): Promise<void> {
  const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
  const fullEnv = {
    ...env,
    ADMIN_TOKEN: adminToken,
    SECRET_KEY: randomBytes(32).toString('hex'),
    SEED_DEMO: 'false',
    RATE_LIMIT_SCALE: '1000',
    DELIVERY_WORKER: 'false',
  };
  const rows: number[][] = [];
  const random = seededRandom(SEED + backend.length);
  console.log(`crash test, ${backend}: kill times from seed ${SEED} (SVC_CRASH_SEED=${SEED} repeats them)`);
  let server: ServerProcess | undefined = await startServerProcess(fullEnv);
  try {
    const firm: Firm = await createFirm(server.url, adminToken, `Crash Test ${backend}`);
    const everAcknowledged = new Map<string, string>();
    const everSent = new Set<string>();
    for (let round = 1; round <= ROUNDS; round++) {
      const killAfterMs = 200 + Math.floor(random() * 1300);
      const token = await openEmbedSession(server.url, firm.publishableKey);
      const prefix = `crash-${round}-${randomBytes(3).toString('hex')}`;
      const streamed = await streamUntilKilled(server, token, prefix, killAfterMs);
      expect(streamed.unexpected).toEqual([]);
      server = await startServerProcess(fullEnv);
      for (const [key, id] of streamed.acknowledged) everAcknowledged.set(key, id);
      for (const key of [...streamed.acknowledged.keys(), ...streamed.unanswered]) everSent.add(key);

      const before = new Set((await listAllLeads(server.url, firm.apiKey)).map((l) => l.email));
      const storedUnanswered = [...streamed.unanswered].filter((k) => before.has(`${k}@example.com`)).length;
      // The clients retry what got no answer, with the same keys, on the restarted server.
      const retryToken = await openEmbedSession(server.url, firm.publishableKey);
      for (const key of streamed.unanswered) {
        const res = await postLead(server.url, retryToken, key);
        expect(res.status, key).toBe(201);
        everAcknowledged.set(key, (await res.json()).leadId);
      }

      const figures = compareStoredLeads(
        await listAllLeads(server.url, firm.apiKey),
        everAcknowledged,
        everSent,
      );
      const sent = streamed.acknowledged.size + streamed.unanswered.size;
      rows.push([
        round,
        killAfterMs,
        sent,
        streamed.acknowledged.size,
        streamed.unanswered.size,
        storedUnanswered,
        figures.stored,
        figures.duplicated,
        figures.lost,
      ]);
      expect(streamed.acknowledged.size).toBeGreaterThan(0);
      expect(figures).toEqual({ stored: everSent.size, duplicated: 0, lost: 0 });
    }
  } finally {
    await stopServerProcess(server);
    printTable(backend, rows);
  }
}

const HEADINGS = [
  'round',
  'SIGKILL after first 201 (ms)',
  'sent',
  'acknowledged',
  'unanswered',
  'of which stored',
  'stored, all rounds',
  'duplicated',
  'lost',
];

function printTable(backend: string, rows: number[][]): void {
  const widths = HEADINGS.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells: (string | number)[]) =>
    cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]!) : String(c).padStart(widths[i]!))).join('  ');
  console.log(
    [
      `crash test, ${backend}: ${rows.length} round(s) of SIGKILL and restart (seed ${SEED})`,
      line(HEADINGS),
      ...rows.map(line),
    ].join('\n'),
  );
}

describe.concurrent('crash test: SIGKILL while leads stream in, then restart', { timeout: 480_000 }, () => {
  it('embedded PGlite on disk: every acknowledged lead exists once, retries add no duplicate', async () => {
    await crashRounds('embedded', {
      DATABASE_URL: '',
      REDIS_URL: '',
      DATA_DIR: freshDataDir('svc-crash-'),
    });
  });

  needs('postgres', 'redis').it(
    'PostgreSQL and Redis: every acknowledged lead exists once, retries add no duplicate (PostgreSQL, Redis)',
    async () => {
      const pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      try {
        await crashRounds('PostgreSQL', {
          DATABASE_URL: pg.url,
          REDIS_URL: process.env.REDIS_URL!,
          REDIS_KEY_PREFIX: `svc-crash-${randomBytes(6).toString('hex')}:`,
        });
      } finally {
        await pg.drop();
      }
    },
  );
});
