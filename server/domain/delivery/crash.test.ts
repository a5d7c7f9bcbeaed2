import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Webhook } from 'standardwebhooks';
import { afterAll, describe, expect, it } from 'vitest';
import { solvedAltcha } from '../../test-support/pow.ts';
import { startReceiver } from '../../test-support/webhook-receiver.ts';

const ADMIN_TOKEN = 'crash-test-admin-token-'.padEnd(48, 'z');

/** The real server in a child process (`node server/index.ts`), so it can be killed with SIGKILL. */
async function startChild(dataDir: string, env: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
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
      WEBHOOK_TIMEOUT_MS: '1000',
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

describe('crash safety (child server killed with SIGKILL)', () => {
  it('delivers a lead committed before the kill, with one webhook-id across its retries', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-crash-'));
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
      const session = await fetch(`${first.apiUrl}/v1/api/license/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: 'https://crashlaw.com' },
        body: JSON.stringify({ licenseKey: publishableKey }),
      });
      const { token } = (await session.json()) as { token: string };
      const lead = await fetch(`${first.apiUrl}/v1/api/leads`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          authorization: `Bearer ${token}`,
          'idempotency-key': 'crash-lead-1',
        },
        body: JSON.stringify({
          calculator: 'estate-tax',
          name: 'Chris Crash',
          email: 'chris@example.com',
          state: 'NY',
          consent: true,
          consentText: 'OK',
          altcha: await solvedAltcha(first.apiUrl, token),
        }),
      });
      expect(lead.status).toBe(201);
      const { leadId } = (await lead.json()) as { leadId: string };
      await kill9(first.child);
      expect(receiver.requests).toHaveLength(0);

      // Run 2: the worker finds the committed event; the receiver fails the first attempt.
      const second = await startChild(dataDir, {});
      children.push(second.child);
      await until(() => receiver.requests.length >= 2, 'the retry after the first failure');
      await new Promise((r) => setTimeout(r, 1_500));
      expect(receiver.requests).toHaveLength(2);
      const ids = new Set(receiver.requests.map((r) => r.headers['webhook-id']));
      expect(ids.size).toBe(1);
      for (const req of receiver.requests) {
        const body = new Webhook(secret).verify(
          req.body,
          req.headers as Record<string, string>,
        ) as ReturnType<typeof JSON.parse>;
        expect(body).toMatchObject({ type: 'lead.created', data: { leadId } });
      }
      const listed = await fetch(`${second.apiUrl}/admin/v1/webhooks/${endpoint.id}/deliveries`, {
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      });
      const delivery = (await listed.json()).deliveries[0];
      expect(delivery).toMatchObject({ status: 'succeeded', attempts: 2 });
      expect(delivery.log.map((a: { statusCode: number }) => a.statusCode)).toEqual([500, 200]);
      await kill9(second.child);
    } finally {
      await receiver.close();
    }
  }, 120_000);
});
