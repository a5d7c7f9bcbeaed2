import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import {
  createFirm,
  type Firm,
  openEmbedSession,
  postJson,
  postLead,
} from '../test-support/firm-over-http.ts';
import { needs } from '../test-support/needs.ts';
import { type ServerProcess, startServerProcess, stopServerProcess } from '../test-support/server-process.ts';
import { startTcpProxy, type TcpProxy } from '../test-support/tcp-proxy.ts';

/** Status, code and Retry-After of an answer: what a client sees. */
async function seen(res: Response) {
  const body = (await res.json().catch(() => ({}))) as { error?: { code?: string } };
  return { status: res.status, code: body.error?.code, retryAfter: res.headers.get('retry-after') };
}

const calculation = (url: string, token: string) =>
  postJson(
    `${url}/v1/api/calc/estimate`,
    { calculator: 'rmd', inputs: { age: 75, balance: 500_000 } },
    {
      authorization: `Bearer ${token}`,
    },
  );

/**
 * The server process talks to its own PostgreSQL database through a TCP proxy the test controls:
 * backends are ended as a restart, a failover or a pooler ends them, and the proxy is cut as a
 * network failure or a stopped server would.
 */
needs('postgres').describe('PostgreSQL faults under a real server process (PostgreSQL)', () => {
  const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
  let db: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let proxy: TcpProxy;
  let server: ServerProcess;
  let firm: Firm;
  let token: string;
  let admin: pg.Client;

  beforeAll(async () => {
    db = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    const url = new URL(db.url);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    url.host = proxy.address;
    server = await startServerProcess({
      DATABASE_URL: url.toString(),
      REDIS_URL: '',
      ADMIN_TOKEN: adminToken,
      SECRET_KEY: randomBytes(32).toString('hex'),
      SEED_DEMO: 'false',
      RATE_LIMIT_SCALE: '1000',
      DELIVERY_WORKER: 'false',
    });
    firm = await createFirm(server.url, adminToken, 'Failover & Sons');
    token = await openEmbedSession(server.url, firm.publishableKey);
    admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
  }, 120_000);

  afterAll(async () => {
    await stopServerProcess(server, 'SIGKILL');
    await admin?.end();
    await proxy?.close();
    await db?.drop();
  });

  /** Ends every connection the server holds to its database, busy or idle. */
  const terminateBackends = () =>
    admin.query(
      `select pg_terminate_backend(pid) from pg_stat_activity
       where datname = $1 and application_name = 'svc' and pid <> pg_backend_pid()`,
      [new URL(db.url).pathname.slice(1)],
    );

  /** Clients posting leads until told to stop; every answer is kept. */
  function streamLeads(prefix: string, clients = 8) {
    let stop = false;
    let n = 0;
    const answers: Awaited<ReturnType<typeof seen>>[] = [];
    const client = async () => {
      while (!stop) {
        // A refused connection (status 0) means the process is gone: the fault this suite is about.
        const res = await postLead(server.url, token, `${prefix}-${n++}`).catch(() => undefined);
        answers.push(res ? await seen(res) : { status: 0, code: 'no answer', retryAfter: null });
      }
    };
    const running = Array.from({ length: clients }, client);
    return {
      answers,
      async stop() {
        stop = true;
        await Promise.all(running);
        return answers;
      },
    };
  }

  const expectOnlyOutages = (answers: Awaited<ReturnType<typeof seen>>[]) => {
    for (const a of answers.filter((x) => x.status !== 201))
      expect(a).toMatchObject({ status: 503, code: 'SERVICE_UNAVAILABLE', retryAfter: expect.any(String) });
  };

  it('lives through its backends being ended while leads stream in; failures are 503 with Retry-After; the pool recovers', async () => {
    const load = streamLeads('lead-ended');
    for (let round = 0; round < 10; round++) {
      await new Promise((r) => setTimeout(r, 100));
      await terminateBackends();
    }
    const answers = await load.stop();
    expect(server.child.exitCode, server.output().slice(-1500)).toBeNull();
    expectOnlyOutages(answers);
    for (let i = 0; i < 5; i++)
      expect((await postLead(server.url, token, `lead-after-${i}`)).status).toBe(201);
  });

  it('lives through PostgreSQL being cut under load: 503 with Retry-After, /readyz says why, then it recovers', async () => {
    const load = streamLeads('lead-cut');
    await expect.poll(() => load.answers.length, { timeout: 10_000 }).toBeGreaterThan(3);
    // Connections in the middle of a statement or a transaction are cut here, as in a failover.
    await proxy.cut();
    try {
      await expect.poll(() => load.answers.some((a) => a.status !== 201), { timeout: 10_000 }).toBe(true);
      expect(await seen(await calculation(server.url, token))).toMatchObject({
        status: 503,
        retryAfter: expect.any(String),
      });
      const ready = await fetch(`${server.url}/readyz`);
      expect(ready.status).toBe(503);
      expect((await ready.json()).error.details.checks.database).toBe('unavailable');
    } finally {
      await proxy.restore();
    }
    const answers = await load.stop();
    expect(server.child.exitCode, server.output().slice(-1500)).toBeNull();
    expectOnlyOutages(answers);
    // Back within seconds; the limit is generous for a machine busy with other suites, and a
    // failure says what the server answered and logged instead of only the last status.
    let last: Awaited<ReturnType<typeof seen>> | undefined;
    try {
      await expect
        .poll(
          async () => {
            last = await seen(await postLead(server.url, token, 'lead-cut-back'));
            return last.status;
          },
          { timeout: 30_000 },
        )
        .toBe(201);
    } catch (error) {
      throw new Error(
        `no recovery after the cut: last answer ${JSON.stringify(last)}; server output:\n${server.output().slice(-3000)}`,
        { cause: error },
      );
    }
    expect((await fetch(`${server.url}/readyz`)).status).toBe(200);
  });
});
