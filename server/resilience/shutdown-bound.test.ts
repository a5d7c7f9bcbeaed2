import { randomBytes } from 'node:crypto';
import { mkdtempSync } from 'node:fs';
import { createServer, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { pgliteDir } from '../db/engine/backup.ts';
import { createDatabase } from '../db/engine/database.ts';
import { mailMessages } from '../db/engine/schema.ts';
import { createFirm, openEmbedSession, postLiveLead } from '../test-support/firm-over-http.ts';
import { startFromTemplate } from '../test-support/pglite-template.ts';
import { type ServerProcess, startServerProcess, stopServerProcess } from '../test-support/server-process.ts';

const SHUTDOWN_TIMEOUT_MS = 1_000;

/** An SMTP server that accepts connections and never says a word (no greeting, no answer). */
async function silentSmtp() {
  const sockets = new Set<Socket>();
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${(server.address() as { port: number }).port}`,
    connections: () => sockets.size,
    close: () => {
      for (const s of sockets) s.destroy();
      server.close();
    },
  };
}

describe('SIGTERM while an SMTP server never answers', { timeout: 120_000 }, () => {
  let server: ServerProcess | undefined;
  let smtp: Awaited<ReturnType<typeof silentSmtp>> | undefined;
  afterAll(async () => {
    await stopServerProcess(server, 'SIGKILL');
    smtp?.close();
  });

  it('exits within SHUTDOWN_TIMEOUT_MS; the abandoned alert mail stays pending for the next start', async () => {
    smtp = await silentSmtp();
    const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-smtp-'));
    startFromTemplate(dataDir);
    server = await startServerProcess({
      DATA_DIR: dataDir,
      DATABASE_URL: '',
      REDIS_URL: '',
      SMTP_URL: smtp.url,
      SHUTDOWN_TIMEOUT_MS: String(SHUTDOWN_TIMEOUT_MS),
      DELIVERY_POLL_MS: '100',
      ADMIN_TOKEN: adminToken,
      SEED_DEMO: 'false',
    });
    const firm = await createFirm(server.url, adminToken, 'Silent Mail LLP');
    const patched = await fetch(`${server.url}/admin/v1/accounts/${firm.accountId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${adminToken}` },
      body: JSON.stringify({ alertEmails: ['office@smithlaw.com'] }),
    });
    expect(patched.status).toBe(200);
    const token = await openEmbedSession(server.url, firm.publishableKey);
    expect((await postLiveLead(server.url, token, 'silent-smtp-lead')).status).toBe(201);
    // The mail loop is now inside the send, waiting for a greeting that never comes.
    await expect.poll(() => smtp!.connections(), { timeout: 20_000 }).toBeGreaterThan(0);

    const started = performance.now();
    const end = await stopServerProcess(server, 'SIGTERM');
    const tookMs = performance.now() - started;
    expect(end, server.output().slice(-800)).toEqual({ code: 0, signal: null });
    // The drain's deadline plus the time a process needs to close its database and exit.
    expect(tookMs).toBeLessThan(SHUTDOWN_TIMEOUT_MS + 3_000);

    const database = await createDatabase({ dataDir: pgliteDir(dataDir) });
    try {
      const mails = await database.db.select().from(mailMessages);
      expect(mails.map((m) => [m.status, m.attempts])).toEqual([['pending', 1]]);
    } finally {
      await database.close();
    }
  });
});
