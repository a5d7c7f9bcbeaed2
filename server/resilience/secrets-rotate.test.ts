import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { eq } from 'drizzle-orm';
import { Webhook } from 'standardwebhooks';
import { describe, expect, it } from 'vitest';
import { pgliteDir } from '../db/engine/backup.ts';
import { createDatabase, type Db } from '../db/engine/database.ts';
import { secrets, signingKeys, webhookEndpoints } from '../db/engine/schema.ts';
import { encrypt } from '../secrets/encryption.ts';
import { runCli } from '../test-support/cli.ts';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import { adminPost, createFirm, postJson } from '../test-support/firm-over-http.ts';
import { needs } from '../test-support/needs.ts';
import { startStack } from '../test-support/stack.ts';
import { startReceiver } from '../test-support/webhook-receiver.ts';

/** Runs `fn` on the database itself (the server is stopped). */
async function direct<T>(base: Record<string, string>, fn: (db: Db) => Promise<T>): Promise<T> {
  const database = await createDatabase(
    base.DATABASE_URL ? { databaseUrl: base.DATABASE_URL } : { dataDir: pgliteDir(base.DATA_DIR!) },
  );
  try {
    return await fn(database.db);
  } finally {
    await database.close();
  }
}

/** Every ciphertext the secret key protects, as stored. */
async function ciphertexts(db: Db): Promise<string[]> {
  return [
    ...(await db.select().from(secrets)).map((r) => r.valueEnc),
    ...(await db.select().from(signingKeys)).map((r) => r.privateKeyEnc),
    ...(await db.select().from(webhookEndpoints)).flatMap((r) => [r.secretEnc, r.previousSecretEnc ?? '']),
  ].sort();
}

/**
 * Before: a site token and refresh token, an API key, a webhook endpoint whose secret was rolled
 * (current + previous secret), a second signing key. Rotate; then the old key is refused and the
 * new one serves all of it unchanged.
 */
async function rotateAndCheck(base: Record<string, string>): Promise<void> {
  const receiver = await startReceiver();
  const oldKey = randomBytes(32).toString('hex');
  const newKey = `rotation passphrase ${randomBytes(12).toString('hex')}`;
  const env = {
    ...base,
    SEED_DEMO: 'false',
    WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
    DELIVERY_POLL_MS: '100',
  };
  const first = await startStack({ ...env, SECRET_KEY: oldKey });
  let firm: Awaited<ReturnType<typeof createFirm>>;
  let tokens: { accessJwt: string; refreshToken: string };
  let endpointId: string;
  let spareEndpointId: string;
  let webhookSecrets: string[];
  try {
    firm = await createFirm(first.apiUrl, first.adminToken, 'Rotation LLP');
    const activated = await postJson(`${first.apiUrl}/v1/api/licenses/activate`, {
      licenseKey: firm.licenseKey,
      siteDomain: 'smithlaw.com',
    });
    tokens = await activated.json();
    const hook = { accountId: firm.accountId, url: receiver.url, events: ['lead.created'] };
    const created = await adminPost<{ endpoint: { id: string }; secret: string }>(
      first.apiUrl,
      first.adminToken,
      '/admin/v1/webhooks',
      hook,
    );
    endpointId = created.endpoint.id;
    const rolled = await adminPost<{ secret: string }>(
      first.apiUrl,
      first.adminToken,
      `/admin/v1/webhooks/${endpointId}/roll-secret`,
      { overlapSeconds: 86_400 },
    );
    webhookSecrets = [created.secret, rolled.secret];
    spareEndpointId = (
      await adminPost<{ endpoint: { id: string } }>(
        first.apiUrl,
        first.adminToken,
        '/admin/v1/webhooks',
        hook,
      )
    ).endpoint.id;
    await adminPost(first.apiUrl, first.adminToken, '/admin/v1/signing-keys/rotate', {});
  } finally {
    await first.close();
  }
  const cli = { ...env, SECRET_KEY: oldKey, NEW_SECRET_KEY: newKey, DATABASE_URL: base.DATABASE_URL ?? '' };

  // One ciphertext the old key cannot open (sealed under a key nobody has): the rotation fails
  // and changes nothing.
  const [before, sealed] = await direct(base, async (db) => {
    const untouched = await ciphertexts(db);
    await db
      .update(webhookEndpoints)
      .set({ secretEnc: encrypt(randomBytes(32), 'whsec_stranger') })
      .where(eq(webhookEndpoints.id, spareEndpointId));
    return [untouched, await ciphertexts(db)];
  });
  const failed = await runCli(base.DATA_DIR!, ['secrets', 'rotate'], cli);
  expect(failed.code, failed.stdout + failed.stderr).toBe(1);
  expect(failed.stderr.trim()).toMatch(/^svc: The secret key does not open this database/);
  expect(sealed.length).toBe(before.length);
  // Without the spare endpoint's row, it goes through.
  await direct(base, async (db) => {
    expect(await ciphertexts(db)).toEqual(sealed);
    await db.delete(webhookEndpoints).where(eq(webhookEndpoints.id, spareEndpointId));
  });
  const rotated = await runCli(base.DATA_DIR!, ['secrets', 'rotate'], cli);
  console.log(`secrets rotate (${base.DATABASE_URL ? 'PostgreSQL' : 'embedded'}):\n${rotated.stdout}`);
  expect(rotated.code, rotated.stderr).toBe(0);
  expect(rotated.stdout).toMatch(/2 shared secret\(s\)/);
  expect(rotated.stdout).toMatch(/2 token signing key\(s\)/);
  expect(rotated.stdout).toMatch(/2 webhook signing secret\(s\)/);
  expect(rotated.stdout).toMatch(/set SECRET_KEY to the new key on every instance/);
  expect(rotated.stdout).not.toContain(newKey); // chosen by the operator: not echoed
  const after = await direct(base, ciphertexts);
  expect(after.filter((c) => c !== '')).toHaveLength(before.filter((c) => c !== '').length - 1);
  expect(after.some((c) => before.includes(c) && c !== '')).toBe(false);

  await expect(startStack({ ...env, SECRET_KEY: oldKey })).rejects.toThrow(
    /SECRET_KEY is not the one this database was set up with/,
  );
  const second = await startStack({ ...env, SECRET_KEY: newKey });
  try {
    const status = await fetch(`${second.apiUrl}/v1/api/licenses/status`, {
      headers: { authorization: `Bearer ${tokens.accessJwt}` },
    });
    expect(status.status).toBe(200);
    const refreshed = await postJson(`${second.apiUrl}/v1/api/licenses/refresh`, {
      refreshToken: tokens.refreshToken,
      siteDomain: 'smithlaw.com',
    });
    expect(refreshed.status).toBe(200);
    const leads = await fetch(`${second.apiUrl}/v1/api/leads`, {
      headers: { authorization: `Bearer ${firm.apiKey}` },
    });
    expect(leads.status).toBe(200);
    await adminPost(second.apiUrl, second.adminToken, `/admin/v1/webhooks/${endpointId}/test`, {});
    await expect.poll(() => receiver.requests.length, { timeout: 20_000 }).toBeGreaterThan(0);
    const delivery = receiver.requests[0]!;
    // Signed with both secrets the receiver knows: the rolled one and the one in its overlap.
    for (const secret of webhookSecrets) {
      expect(() =>
        new Webhook(secret).verify(delivery.body, delivery.headers as Record<string, string>),
      ).not.toThrow();
    }
  } finally {
    await second.close();
    await receiver.close();
  }
}

describe('secrets rotate', { timeout: 360_000 }, () => {
  it('re-encrypts every secret of the embedded database atomically; the old SECRET_KEY is refused after', async () => {
    await rotateAndCheck({ DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-rotate-')) });
  });

  it('with the key file: generates the new key, moves it into place and keeps the old one apart', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-rotate-file-'));
    const first = await startStack({ DATA_DIR: dataDir, SEED_DEMO: 'false' });
    await first.close();
    const oldFile = readFileSync(join(dataDir, 'secret.key'), 'utf8');
    const rotated = await runCli(dataDir, ['secrets', 'rotate'], { SECRET_KEY: '' });
    expect(rotated.code, rotated.stderr).toBe(0);
    expect(rotated.stdout).toMatch(/secret\.key now holds the new key/);
    const newFile = readFileSync(join(dataDir, 'secret.key'), 'utf8');
    expect(newFile).toMatch(/^[0-9a-f]{64}\n$/);
    expect(newFile).not.toBe(oldFile);
    expect(rotated.stdout).not.toContain(newFile.trim());
    const retired = readdirSync(dataDir).filter((f) => f.startsWith('secret.key.retired-'));
    expect(retired).toHaveLength(1);
    expect(readFileSync(join(dataDir, retired[0]!), 'utf8')).toBe(oldFile);
    expect(existsSync(join(dataDir, 'secret.key.next'))).toBe(false);
    const again = await startStack({ DATA_DIR: dataDir, SEED_DEMO: 'false' });
    await again.close();
  });

  it('refuses while the server runs on the data directory', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-rotate-busy-'));
    const running = await startStack({ DATA_DIR: dataDir, SEED_DEMO: 'false' });
    try {
      const refused = await runCli(dataDir, ['secrets', 'rotate'], { SECRET_KEY: '' });
      expect(refused.code).toBe(1);
      expect(refused.stderr.trim()).toMatch(/^svc: Stop the server first/);
    } finally {
      await running.close();
    }
  });

  needs('postgres', 'redis').it(
    're-encrypts every secret of a PostgreSQL database atomically (PostgreSQL, Redis)',
    async () => {
      const pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      try {
        await rotateAndCheck({
          DATA_DIR: mkdtempSync(join(tmpdir(), 'svc-rotate-pg-')),
          DATABASE_URL: pg.url,
          REDIS_URL: process.env.REDIS_URL!,
          REDIS_KEY_PREFIX: `svc-rotate-${randomBytes(6).toString('hex')}:`,
        });
      } finally {
        await pg.drop();
      }
    },
  );
});
