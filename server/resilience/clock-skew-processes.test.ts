import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import {
  adminPost,
  createFirm,
  type Firm,
  openEmbedSession,
  postJson,
  postLiveLead,
} from '../test-support/firm-over-http.ts';
import { needs } from '../test-support/needs.ts';
import {
  type ServerProcess,
  sharedInstanceEnv,
  startServerProcess,
  stopServerProcess,
} from '../test-support/server-process.ts';
import { startReceiver } from '../test-support/webhook-receiver.ts';

/**
 * Debian's libfaketime, preloaded into the server itself: it sees its wall clock 2 minutes ahead;
 * its monotonic clock is left alone. Not through the `faketime` wrapper, which forks: stopping the
 * wrapper left the server running. The dynamic linker expands `$LIB`, as the wrapper has it.
 */
const AHEAD = {
  LD_PRELOAD: '/usr/$LIB/faketime/libfaketime.so.1',
  FAKETIME: '+120s',
  FAKETIME_DONT_FAKE_MONOTONIC: '1',
};

/** Answer each delivery after this long, so several are in flight at once if anything allows it. */
const RECEIVER_DELAY_MS = 150;
// Each lead carries a solved proof of work, fetched before any is stored (as a burst of
// visitors would): 12 stays within the price at which those challenges were issued.
const LEADS = 12;
/** docs/webhooks.md: at most 3 deliveries per endpoint in flight, across all instances. */
const IN_FLIGHT_LIMIT = 3;

needs('postgres', 'redis', 'faketime').describe(
  'two instances whose clocks are 2 minutes apart, sharing PostgreSQL (PostgreSQL, Redis)',
  { timeout: 180_000 },
  () => {
    const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
    let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let onTime: ServerProcess | undefined;
    let ahead: ServerProcess | undefined;
    let receiver: Awaited<ReturnType<typeof startReceiver>>;
    let firm: Firm;
    let inFlight = 0;
    let maxInFlight = 0;

    beforeAll(async () => {
      receiver = await startReceiver((_req, _n, res) => {
        inFlight++;
        maxInFlight = Math.max(maxInFlight, inFlight);
        setTimeout(() => {
          inFlight--;
          res.writeHead(204).end();
        }, RECEIVER_DELAY_MS);
        return 'hang';
      });
      pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      const env = sharedInstanceEnv(pg.url, adminToken, {
        WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1',
        DELIVERY_POLL_MS: '100',
        // 60 leads from one address in seconds: the per-minute limits are not what is tested here.
        RATE_LIMIT_SCALE: '100',
      });
      onTime = await startServerProcess(env);
      ahead = await startServerProcess({ ...env, ...AHEAD }, 180_000);
      firm = await createFirm(onTime.url, adminToken, 'Skewed Clocks LLP');
      await adminPost(onTime.url, adminToken, '/admin/v1/webhooks', {
        accountId: firm.accountId,
        url: receiver.url,
        events: ['lead.created'],
      });
    }, 180_000);

    afterAll(async () => {
      await Promise.all([stopServerProcess(onTime), stopServerProcess(ahead)]);
      await receiver?.close();
      await pg?.drop();
    });

    it('really runs the second instance 2 minutes ahead', async () => {
      const date = (res: Response) => new Date(res.headers.get('date')!).getTime();
      const skew = date(await fetch(`${ahead!.url}/healthz`)) - date(await fetch(`${onTime!.url}/healthz`));
      expect(skew).toBeGreaterThan(110_000);
      expect(skew).toBeLessThan(130_000);
    });

    it('accepts on each instance the tokens the other issued (site access tokens and embed tokens)', async () => {
      for (const [issuer, verifier] of [
        [ahead!, onTime!],
        [onTime!, ahead!],
      ] as const) {
        const set = await postJson(`${issuer.url}/v1/api/licenses/activate`, {
          licenseKey: firm.licenseKey,
          siteDomain: 'smithlaw.com',
        });
        expect(set.status).toBe(200);
        const { accessJwt } = (await set.json()) as { accessJwt: string };
        const status = await fetch(`${verifier.url}/v1/api/licenses/status`, {
          headers: { authorization: `Bearer ${accessJwt}` },
        });
        expect(status.status, await status.clone().text()).toBe(200);
        const embedToken = await openEmbedSession(issuer.url, firm.publishableKey);
        const lead = await postLiveLead(
          verifier.url,
          embedToken,
          `token-check-${randomBytes(4).toString('hex')}`,
        );
        expect(lead.status, await lead.clone().text()).toBe(201);
      }
      // Their own deliveries are done before the next test counts.
      await expect.poll(() => receiver.requests.length, { timeout: 30_000 }).toBe(2);
    });

    it(`delivers ${LEADS} leads to one webhook exactly once each, never more than ${IN_FLIGHT_LIMIT} in flight`, async () => {
      const before = receiver.requests.length;
      const tokens = [
        await openEmbedSession(onTime!.url, firm.publishableKey),
        await openEmbedSession(ahead!.url, firm.publishableKey),
      ];
      const instances = [onTime!, ahead!];
      const answers = await Promise.all(
        Array.from({ length: LEADS }, (_, i) =>
          postLiveLead(
            instances[i % 2]!.url,
            tokens[(i >> 1) % 2]!,
            `skew-${i}-${randomBytes(3).toString('hex')}`,
          ),
        ),
      );
      expect(answers.map((a) => a.status)).toEqual(Array(LEADS).fill(201));
      const expected = before + LEADS;
      await expect
        .poll(() => receiver.requests.length, { timeout: 60_000, interval: 200 })
        .toBeGreaterThanOrEqual(expected);
      // No second request for any of them, proven without waiting for nothing: a marker lead
      // stored now is due after every delivery of the burst, and workers claim in due order, so a
      // wrongly reclaimed lease (the instance ahead sees it expire 2 minutes early) would be sent
      // again before the marker is sent at all.
      const marker = await postLiveLead(
        ahead!.url,
        tokens[1]!,
        `skew-marker-${randomBytes(3).toString('hex')}`,
      );
      expect(marker.status).toBe(201);
      const { leadId: markerId } = (await marker.json()) as { leadId: string };
      await expect
        .poll(() => receiver.requests.some((r) => r.body.includes(markerId)), {
          timeout: 60_000,
          interval: 100,
        })
        .toBe(true);
      const sent = receiver.requests.slice(before);
      expect(sent.at(-1)!.body).toContain(markerId);
      const ids = sent.slice(0, -1).map((r) => r.headers['webhook-id']);
      expect(ids).toHaveLength(LEADS);
      expect(new Set(ids).size).toBe(LEADS);
      expect(maxInFlight).toBeLessThanOrEqual(IN_FLIGHT_LIMIT);
    });
  },
);
