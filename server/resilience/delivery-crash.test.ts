import { type ChildProcess, spawn } from 'node:child_process';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { compiledArgs } from '../test-support/compiled-server.ts';
import { freshDataDir } from '../test-support/pglite-template.ts';
import { solvedAltcha } from '../test-support/pow.ts';
import { startReceiver } from '../test-support/webhook-receiver.ts';

const ADMIN_TOKEN = 'crash-test-admin-token-'.padEnd(48, 'z');

/** The real server in a child process (`node server/main/index.ts`), so it can be killed with SIGKILL. */
async function startChild(dataDir: string, env: Record<string, string>) {
  const child = spawn(process.execPath, compiledArgs('server/main/index.ts'), {
    env: {
      ...process.env,
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      API_PORT: '0',
      EMBED_PORT: '0',
      EXAMPLES_PORT: '0',
      ADMIN_TOKEN,
      RATE_LIMIT_SCALE: '100',
      SEED_DEMO: 'false',
      WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
      // Generous: on a loaded machine a 1 s limit turned the receiver's quick 500 into a timeout.
      WEBHOOK_TIMEOUT_MS: '10000',
      DELIVERY_POLL_MS: '100',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const apiUrl = await new Promise<string>((resolve, reject) => {
    let out = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      const match = /API\s+(http:\/\/\S+)\/v1/.exec(out);
      if (match) resolve(match[1]!);
    });
    child.stderr!.on('data', (chunk: Buffer) => {
      out += chunk.toString();
    });
    child.once('exit', (code) => reject(new Error(`server exited (${code}) before it was ready: ${out}`)));
  });
  return { child, apiUrl };
}

async function kill9(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGKILL');
  await exited;
}

const children: ChildProcess[] = [];
afterAll(async () => {
  for (const child of children) await kill9(child);
});

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const end = Date.now() + ms;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A lead from crashlaw.com through a fresh embed session, as the widget sends it. */
async function postLead(apiUrl: string, publishableKey: string, idempotencyKey: string, name: string) {
  const session = await fetch(`${apiUrl}/v1/api/license/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://crashlaw.com' },
    body: JSON.stringify({ licenseKey: publishableKey }),
  });
  const { token } = (await session.json()) as { token: string };
  return await fetch(`${apiUrl}/v1/api/leads`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'idempotency-key': idempotencyKey,
    },
    body: JSON.stringify({
      calculator: 'estate-tax',
      name,
      email: 'chris@example.com',
      state: 'NY',
      consent: true,
      consentText: 'OK',
      altcha: await solvedAltcha(apiUrl, token),
    }),
  });
}

describe('crash safety (child server killed with SIGKILL)', () => {
  it('delivers a lead committed before the kill, with one webhook-id across its retries', async () => {
    const dataDir = freshDataDir('svc-crash-');
    const receiver = await startReceiver((_req, n) => (n === 1 ? 500 : 200));
    try {
      // Run 1: the worker is off, so the lead commits and nothing is sent before the kill.
      const first = await startChild(dataDir, { DELIVERY_WORKER: 'false' });
      children.push(first.child);
      const admin = async (path: string, body: unknown) => {
        const res = await fetch(`${first.apiUrl}${path}`, {
          method: 'POST',
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify(body),
        });
        expect(res.status).toBe(200);
        return await res.json();
      };
      const { account } = await admin('/admin/v1/accounts', { name: 'Crash & Co' });
      const { publishableKey } = await admin('/admin/v1/licenses', {
        accountId: account.id,
        plan: 'pro',
        seats: 1,
        domains: ['crashlaw.com'],
        trialDays: 30,
      });
      const { endpoint, secret } = await admin('/admin/v1/webhooks', {
        accountId: account.id,
        url: receiver.url,
        events: ['lead.created'],
      });
      const lead = await postLead(first.apiUrl, publishableKey, 'crash-lead-1', 'Chris Crash');
      expect(lead.status).toBe(201);
      const { leadId } = (await lead.json()) as { leadId: string };
      await kill9(first.child);
      expect(receiver.requests).toHaveLength(0);

      // Run 2: the worker finds the committed event; the receiver fails the first attempt.
      const second = await startChild(dataDir, {});
      children.push(second.child);
      await until(() => receiver.requests.length >= 2, 'the retry after the first failure', 90_000);
      const deliveries = async () => {
        const listed = await fetch(`${second.apiUrl}/admin/v1/webhooks/${endpoint.id}/deliveries`, {
          headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        });
        return (await listed.json()).deliveries as {
          status: string;
          attempts: number;
          log: { statusCode: number }[];
        }[];
      };
      await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 20_000 }).toBe('succeeded');

      // No third request for the lead, proven without waiting for nothing: a marker lead created
      // now is due after anything still owed for the first (the worker claims in due order), so
      // once the marker is delivered, a repeat of the first would already have come.
      const marker = await postLead(second.apiUrl, publishableKey, 'crash-marker', 'Mark Marker');
      expect(marker.status).toBe(201);
      const { leadId: markerId } = (await marker.json()) as { leadId: string };
      const leadIdOf = (req: (typeof receiver.requests)[number]) =>
        (
          new Webhook(secret).verify(req.body, req.headers as Record<string, string>) as {
            data: { leadId: string };
          }
        ).data.leadId;
      await until(() => receiver.requests.some((r) => leadIdOf(r) === markerId), 'the marker lead');
      await expect
        .poll(async () => (await deliveries()).map((d) => d.status), { timeout: 20_000 })
        .toEqual(['succeeded', 'succeeded']);
      expect(receiver.requests.map(leadIdOf)).toEqual([leadId, leadId, markerId]);
      const ids = new Set(receiver.requests.slice(0, 2).map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const req of receiver.requests) {
        const body = new Webhook(secret).verify(req.body, req.headers as Record<string, string>);
        expect(body).toMatchObject({ type: 'lead.created' });
      }
      const first1 = (await deliveries()).find((d) => d.attempts === 2);
      expect(first1).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(first1!.log.map((a) => a.statusCode)).toEqual([500, 200]);
      await kill9(second.child);
    } finally {
      await receiver.close();
    }
  }, 240_000);
});
