import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { DIFFICULTY, isTooEasy, maxNumberFor, solveChallenge } from '../domain/leads/proof-of-work.ts';
import { createPostgresTestDatabase } from '../test-support/db.ts';
import { createFirm, type Firm, openEmbedSession, postJson } from '../test-support/firm-over-http.ts';
import { needs } from '../test-support/needs.ts';
import {
  type ServerProcess,
  sharedInstanceEnv,
  startServerProcess,
  stopServerProcess,
} from '../test-support/server-process.ts';

/**
 * The spam rule's counts under parallel sends across instances (issue 39): leads sent at once,
 * half to each of two server processes sharing PostgreSQL and Redis, each lead with its own proof
 * of work solved at the lowest price, meet the same limits as leads sent one at a time. The same
 * attacks in one process on PGlite: server/routes/public/spam-rule-parallel.test.ts.
 */
needs('postgres', 'redis').describe(
  'the spam rule under parallel sends to two processes (PostgreSQL, Redis)',
  () => {
    const adminToken = `svc_admin_${randomBytes(24).toString('base64url')}`;
    let pg: Awaited<ReturnType<typeof createPostgresTestDatabase>>;
    let servers: ServerProcess[] = [];

    beforeAll(async () => {
      pg = await createPostgresTestDatabase(process.env.DATABASE_URL!);
      const env = sharedInstanceEnv(pg.url, adminToken, {
        TRUST_PROXY: 'true',
        // The subject is the spam rule, not the request rate limits.
        RATE_LIMIT_SCALE: '1000',
      });
      // Started together: one migrates under the migration lock, the other then finds nothing to do.
      servers = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    }, 180_000);

    afterAll(async () => {
      await Promise.all(servers.map((s) => stopServerProcess(s)));
      await pg?.drop();
    });

    /** A firm with an embed session on each process, and a sender that alternates between them. */
    async function firm() {
      const f: Firm = await createFirm(
        servers[0]!.url,
        adminToken,
        `Parallel ${randomBytes(3).toString('hex')}`,
      );
      const tokens = await Promise.all(servers.map((s) => openEmbedSession(s.url, f.publishableKey)));
      const challenge = async (i: number) => {
        const res = await postJson(
          `${servers[i % 2]!.url}/v1/api/leads/challenge`,
          {},
          {
            authorization: `Bearer ${tokens[i % 2]}`,
          },
        );
        expect(res.status).toBe(200);
        return res.json();
      };
      const solve = (c: Parameters<typeof solveChallenge>[0]) => {
        const { tries: _tries, ...solution } = solveChallenge(c);
        return Buffer.from(JSON.stringify(solution)).toString('base64');
      };
      const post = async (i: number, ip: string, altcha: string) => {
        const res = await postJson(
          `${servers[i % 2]!.url}/v1/api/leads`,
          {
            calculator: 'rmd',
            name: 'Jordan Lee',
            email: 'jordan@example.com',
            state: 'NY',
            consent: true,
            altcha,
          },
          {
            authorization: `Bearer ${tokens[i % 2]}`,
            'x-forwarded-for': ip,
            'idempotency-key': `pp-${i}-${ip}`,
          },
        );
        return { status: res.status, body: (await res.json()) as { leadId?: string } };
      };
      const reasonsOf = async (leadId: string) => {
        const res = await fetch(`${servers[0]!.url}/v1/api/leads/${leadId}`, {
          headers: { authorization: `Bearer ${f.apiKey}` },
        });
        return ((await res.json()) as { quarantineReasons: string[] }).quarantineReasons;
      };
      return { challenge, solve, post, reasonsOf };
    }

    it('twelve leads at once from one address: 3 live, 9 held for network_burst', async () => {
      const f = await firm();
      const altchas = (await Promise.all(Array.from({ length: 12 }, (_, i) => f.challenge(i)))).map(f.solve);
      const answers = await Promise.all(altchas.map((a, i) => f.post(i, '203.0.113.9', a)));
      expect(answers.map((a) => a.status)).toEqual(Array(12).fill(201));
      const reasons = await Promise.all(answers.map((a) => f.reasonsOf(a.body.leadId!)));
      expect(reasons.filter((r) => r.length === 0)).toHaveLength(3);
      expect(reasons.filter((r) => r.includes('network_burst'))).toHaveLength(9);
    });

    it('eight leads at once from eight /64s of one /48: 6 live, 2 held for block_burst', async () => {
      const f = await firm();
      const altchas = (await Promise.all(Array.from({ length: 8 }, (_, i) => f.challenge(i)))).map(f.solve);
      const answers = await Promise.all(altchas.map((a, i) => f.post(i, `2001:db8:77:${i + 1}::5`, a)));
      expect(answers.map((a) => a.status)).toEqual(Array(8).fill(201));
      const reasons = await Promise.all(answers.map((a) => f.reasonsOf(a.body.leadId!)));
      expect(reasons.filter((r) => r.length === 0)).toHaveLength(6);
      expect(reasons.filter((r) => r.includes('block_burst'))).toHaveLength(2);
    });

    it('a stockpile of base-price challenges sent at once buys no more than sent one at a time', async () => {
      const f = await firm();
      let sequential = 0;
      while (!isTooEasy(DIFFICULTY.BASE, maxNumberFor(sequential))) sequential++;
      const stock = 24;
      const challenges = await Promise.all(Array.from({ length: stock }, (_, i) => f.challenge(i)));
      expect(challenges.every((c) => c.maxnumber === DIFFICULTY.BASE)).toBe(true);
      const answers = await Promise.all(challenges.map((c, i) => f.post(i, `198.18.${i}.1`, f.solve(c))));
      const statuses = answers.map((a) => a.status);
      expect(statuses.filter((s) => s === 201)).toHaveLength(sequential);
      expect(statuses.filter((s) => s === 400)).toHaveLength(stock - sequential);
    });
  },
);
