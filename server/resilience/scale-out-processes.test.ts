import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import { needs } from '../test-support/needs.ts';
import {
  type ServerProcess,
  sharedInstanceEnv,
  startServerProcess,
  stopServerProcess,
} from '../test-support/server-process.ts';

type Instance = ServerProcess;

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

/**
 * Two server processes on different ports sharing one PostgreSQL database and one Redis, as behind
 * a load balancer, configured only with the database URL, the Redis URL, the secret key and the
 * admin token.
 */
needs('postgres', 'redis').describe(
  'two server processes sharing PostgreSQL and Redis (PostgreSQL, Redis)',
  { timeout: 120_000 },
  () => {
    const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
    const metricsToken = `metrics-${randomBytes(16).toString('hex')}`;
    let accountId: string;
    let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let a: Instance | undefined;
    let b: Instance | undefined;
    let licenseKey: string;
    let publishableKey: string;
    let licenseId: string;

    beforeAll(async () => {
      pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      const env = sharedInstanceEnv(pg.url, adminToken, {
        METRICS_TOKEN: metricsToken,
      });
      a = await startServerProcess(env);
      b = await startServerProcess(env);
      const admin = { authorization: `Bearer ${adminToken}` };
      const account = await (
        await post(`${a.url}/admin/v1/accounts`, { name: 'Two-Node LLP' }, admin)
      ).json();
      const created = await (
        await post(
          `${b.url}/admin/v1/licenses`,
          {
            accountId: account.account.id,
            plan: 'pro',
            seats: 3,
            domains: ['smithlaw.com', '*.smithlaw.com'],
            paidThrough: '2099-01-01',
          },
          admin,
        )
      ).json();
      accountId = account.account.id;
      licenseKey = created.licenseKey;
      publishableKey = created.publishableKey;
      licenseId = created.license.id;
    }, 180_000);

    afterAll(async () => {
      await Promise.all([stopServerProcess(a), stopServerProcess(b)]);
      await pg?.drop();
    });

    const activate = (on: Instance, siteDomain = 'smithlaw.com') =>
      post(`${on.url}/v1/api/licenses/activate`, { licenseKey, siteDomain });

    it('runs as two processes with different addresses', () => {
      expect(a!.url).not.toBe(b!.url);
      expect(a!.child.pid).not.toBe(b!.child.pid);
    });

    it('accepts on one process the token the other issued', async () => {
      const set = await (await activate(a!)).json();
      const res = await fetch(`${b!.url}/v1/api/licenses/status`, {
        headers: { authorization: `Bearer ${set.accessJwt}` },
      });
      expect(res.status).toBe(200);
    });

    it('rotates one refresh token sent to both at once into one pair, and still detects reuse', async () => {
      const set = await (await activate(b!, 'blog.smithlaw.com')).json();
      const body = { refreshToken: set.refreshToken, siteDomain: 'blog.smithlaw.com' };
      const [x, y] = await Promise.all([
        post(`${a!.url}/v1/api/licenses/refresh`, body),
        post(`${b!.url}/v1/api/licenses/refresh`, body),
      ]);
      expect([x.status, y.status]).toEqual([200, 200]);
      const [one, two] = [await x.json(), await y.json()];
      expect(one.refreshToken).toBe(two.refreshToken);
      const next = await post(`${a!.url}/v1/api/licenses/refresh`, {
        refreshToken: one.refreshToken,
        siteDomain: 'blog.smithlaw.com',
      });
      expect(next.status).toBe(200);
      const newest = await next.json();
      // The first token again, two rotations later: reuse, so the whole family is revoked.
      expect((await post(`${b!.url}/v1/api/licenses/refresh`, body)).status).toBe(400);
      const after = await post(`${a!.url}/v1/api/licenses/refresh`, {
        refreshToken: newest.refreshToken,
        siteDomain: 'blog.smithlaw.com',
      });
      expect(after.status).toBe(400);
    });

    it('stores one lead when the same Idempotency-Key reaches both processes', async () => {
      const session = await (
        await post(
          `${a!.url}/v1/api/license/activate`,
          { licenseKey: publishableKey, calculator: 'rmd' },
          { origin: 'https://smithlaw.com' },
        )
      ).json();
      const lead = {
        calculator: 'rmd',
        name: 'Ann Two-Node',
        email: 'ann@example.com',
        state: 'PA',
        consent: true,
      };
      const headers = { authorization: `Bearer ${session.token}`, 'idempotency-key': 'two-process-key-1' };
      const [x, y] = await Promise.all([
        post(`${a!.url}/v1/api/leads`, lead, headers),
        post(`${b!.url}/v1/api/leads`, lead, headers),
      ]);
      expect([x.status, y.status]).toEqual([201, 201]);
      expect((await x.json()).leadId).toBe((await y.json()).leadId);
    });

    const admin = { authorization: `Bearer ${adminToken}` };

    /** Cache hits of one process so far, from its /metrics. */
    async function cacheHits(on: Instance): Promise<number> {
      const text = await (
        await fetch(`${on.url}/metrics`, { headers: { authorization: `Bearer ${metricsToken}` } })
      ).text();
      return [...text.matchAll(/^svc_cache_hits_total\{[^}]*\} (\d+)/gm)].reduce(
        (n, m) => n + Number(m[1]),
        0,
      );
    }

    /** An embed session opened on `on` for `origin`, and a calculation with its token there. */
    async function embedCalculation(on: Instance, key: string, origin: string) {
      const session = await (
        await post(`${on.url}/v1/api/license/activate`, { licenseKey: key, calculator: 'rmd' }, { origin })
      ).json();
      return () =>
        post(
          `${on.url}/v1/api/calc/estimate`,
          { calculator: 'rmd', inputs: { balance: 500_000, age: 75 } },
          { authorization: `Bearer ${session.token}` },
        );
    }

    /** Two answers of 200 from `on`, the second with more cache hits: the caches are on. */
    async function warm(on: Instance, request: () => Promise<Response>) {
      expect((await request()).status).toBe(200);
      const before = await cacheHits(on);
      expect((await request()).status).toBe(200);
      expect(await cacheHits(on)).toBeGreaterThan(before);
    }

    it('refuses on one process, with its caches warm, an embed token whose domain was removed through the other', async () => {
      const created = await (
        await post(
          `${a!.url}/admin/v1/licenses`,
          {
            accountId,
            plan: 'pro',
            seats: 3,
            domains: ['one.example', 'two.example'],
            paidThrough: '2099-01-01',
          },
          admin,
        )
      ).json();
      const calc = await embedCalculation(b!, created.publishableKey, 'https://two.example');
      await warm(b!, calc);
      const removed = await fetch(`${a!.url}/admin/v1/licenses/${created.license.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', ...admin },
        body: JSON.stringify({ removeDomains: ['two.example'] }),
      });
      expect(removed.status).toBe(200);
      expect((await calc()).status).toBe(401);
    });

    it('refuses on one process, with its caches warm, an API key revoked through the other', async () => {
      const key = await (
        await post(`${a!.url}/admin/v1/api-keys`, { accountId, name: 'two-node' }, admin)
      ).json();
      const leads = () =>
        fetch(`${b!.url}/v1/api/leads`, { headers: { authorization: `Bearer ${key.apiKey}` } });
      await warm(b!, leads);
      const revoked = await post(
        `${a!.url}/admin/v1/accounts/${accountId}/api-keys/${key.id}/revoke`,
        {},
        admin,
      );
      expect(revoked.status).toBe(200);
      expect((await leads()).status).toBe(401);
    });

    it('refuses on one process, with its caches warm, a site token revoked through the other', async () => {
      const set = await (await activate(a!, 'shop.smithlaw.com')).json();
      const status = () =>
        fetch(`${b!.url}/v1/api/licenses/status`, { headers: { authorization: `Bearer ${set.accessJwt}` } });
      await warm(b!, status);
      expect((await post(`${a!.url}/v1/api/licenses/revoke`, { token: set.refreshToken })).status).toBe(200);
      expect((await status()).status).toBe(401);
    });

    it('shows on one process, with its caches warm, a key rolled and a consent published through the other', async () => {
      const firm = await (
        await post(`${a!.url}/admin/v1/accounts`, { name: 'Keys & Words LLP' }, admin)
      ).json();
      const created = await (
        await post(
          `${a!.url}/admin/v1/licenses`,
          {
            accountId: firm.account.id,
            plan: 'pro',
            seats: 3,
            domains: ['keys.example'],
            paidThrough: '2099-01-01',
          },
          admin,
        )
      ).json();
      const set = await (
        await post(`${a!.url}/v1/api/licenses/activate`, {
          licenseKey: created.licenseKey,
          siteDomain: 'keys.example',
        })
      ).json();
      const status = () =>
        fetch(`${b!.url}/v1/api/licenses/status`, { headers: { authorization: `Bearer ${set.accessJwt}` } });
      await warm(b!, status);
      const rolled = await (
        await post(
          `${a!.url}/admin/v1/licenses/${created.license.id}/roll-key`,
          { kind: 'publishable', overlapSeconds: 3600 },
          admin,
        )
      ).json();
      expect(rolled.publishableKey).not.toBe(created.publishableKey);
      expect((await (await status()).json()).publishableKey).toBe(rolled.publishableKey);

      const session = () =>
        post(
          `${b!.url}/v1/api/license/activate`,
          { licenseKey: rolled.publishableKey },
          { origin: 'https://keys.example' },
        );
      // The firm's first session writes its default consent as version 1 (an invalidating write).
      expect((await session()).status).toBe(200);
      await warm(b!, session);
      const text = 'Keys & Words LLP may call or e-mail me about this enquiry.';
      const published = await fetch(`${a!.url}/admin/v1/accounts/${firm.account.id}`, {
        method: 'PATCH',
        headers: { 'content-type': 'application/json', ...admin },
        body: JSON.stringify({ consentText: text }),
      });
      expect(published.status).toBe(200);
      expect((await (await session()).json()).consent.text).toBe(text);
    });

    it('counts rate limits globally: the 11th activation in a minute is refused on either process', async () => {
      // Earlier tests used 4 of the 10 activations this minute from this IP.
      const statuses: number[] = [];
      for (let i = 0; statuses.length < 12; i++) statuses.push((await activate(i % 2 ? a! : b!)).status);
      expect(statuses.filter((s) => s === 429).length).toBeGreaterThanOrEqual(3);
      expect(statuses.indexOf(429)).toBeLessThanOrEqual(8);
      const refused = await activate(a!);
      expect(refused.status).toBe(429);
      expect((await activate(b!)).status).toBe(429);
    });

    it('refuses on one process, at the next request, a license revoked through the other', async () => {
      const calc = await embedCalculation(b!, publishableKey, 'https://smithlaw.com');
      await warm(b!, calc);
      const revoked = await post(
        `${a!.url}/admin/v1/licenses/${licenseId}/revoke`,
        {},
        {
          authorization: `Bearer ${adminToken}`,
        },
      );
      expect(revoked.status).toBe(200);
      expect((await calc()).status).toBe(401);
    });
  },
);
