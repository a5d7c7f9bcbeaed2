import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningServers } from '../main/servers.ts';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import { needs } from '../test-support/needs.ts';
import { startStack } from '../test-support/stack.ts';

/**
 * Two whole servers on different ports sharing one PostgreSQL database, configured only with the
 * database URL and the secret key (as docs/operations.md promises): each one's tokens verify on the other.
 */
needs('postgres').describe('token issuer across instances (PostgreSQL)', () => {
  let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
  let a: RunningServers;
  let b: RunningServers;

  beforeAll(async () => {
    pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
    const env = { DATABASE_URL: pg.url, SECRET_KEY: randomBytes(32).toString('hex'), REDIS_URL: '' };
    a = await startStack(env);
    b = await startStack(env);
  });
  afterAll(async () => {
    await a?.close();
    await b?.close();
    await pg?.drop();
  });

  it('accepts on one instance the access token the other issued, without PUBLIC_API_URL', async () => {
    expect(a.apiUrl).not.toBe(b.apiUrl);
    const activated = await fetch(`${a.apiUrl}/v1/api/licenses/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ licenseKey: a.demo.licenseKey, siteDomain: 'demo.svc.test' }),
    });
    expect(activated.status).toBe(200);
    const { accessJwt } = await activated.json();
    const status = await fetch(`${b.apiUrl}/v1/api/licenses/status`, {
      headers: { authorization: `Bearer ${accessJwt}` },
    });
    expect(status.status).toBe(200);
    const iss = JSON.parse(Buffer.from(accessJwt.split('.')[1], 'base64url').toString()).iss;
    expect(iss).toBe(a.apiUrl);
  });
});
