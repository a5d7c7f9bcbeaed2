import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { leads } from '../../db/engine/schema.ts';
import { type Challenge, DIFFICULTY, isTooEasy, maxNumberFor } from '../../domain/leads/proof-of-work.ts';
import { mintAltcha } from '../../test-support/pow.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * The spam rule's counts under parallel sends (issue 39): leads sent at once, each with its own
 * proof of work (minted at the lowest price), must meet the same limits as leads sent one at a
 * time. PGlite here; server/resilience/spam-rule-processes.test.ts sends the same to two server
 * processes on PostgreSQL.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

async function firm() {
  const f = await t.seed.firm();
  const res = await t.json(
    '/v1/api/license/activate',
    { licenseKey: f.publishableKey },
    { origin: 'https://smithlaw.com' },
  );
  const token = (await res.json()).token as string;
  let keys = 0;
  const challenge = async () =>
    (await (
      await t.json('/v1/api/leads/challenge', {}, { authorization: `Bearer ${token}` })
    ).json()) as Challenge;
  const post = (ip: string, altcha: string) =>
    t.json(
      '/v1/api/leads',
      {
        calculator: 'rmd',
        name: 'Jordan Lee',
        email: 'jordan@example.com',
        state: 'NY',
        consent: true,
        altcha,
      },
      { authorization: `Bearer ${token}`, 'x-forwarded-for': ip, 'idempotency-key': `par-${++keys}-key` },
    );
  const reasonsOf = async () =>
    (await t.database.db.select().from(leads).where(eq(leads.accountId, f.account.id))).map(
      (l) => l.quarantineReasons,
    );
  return { challenge, post, reasonsOf };
}

const minted = (c: Challenge) => mintAltcha(t.services.licensing.pepper, c);

describe('the spam rule under parallel sends (PGlite)', () => {
  it('twelve leads at once from one address: 3 live, 9 held for network_burst', async () => {
    const f = await firm();
    const altchas = (await Promise.all(Array.from({ length: 12 }, f.challenge))).map(minted);
    const answers = await Promise.all(altchas.map((a) => f.post('203.0.113.9', a)));
    expect(answers.map((r) => r.status)).toEqual(Array(12).fill(201));
    const reasons = await f.reasonsOf();
    expect(reasons.filter((r) => r.length === 0)).toHaveLength(3);
    expect(reasons.filter((r) => r.includes('network_burst'))).toHaveLength(9);
  });

  it('eight leads at once from eight /64s of one /48: 6 live, 2 held for block_burst', async () => {
    const f = await firm();
    const altchas = (await Promise.all(Array.from({ length: 8 }, f.challenge))).map(minted);
    const answers = await Promise.all(altchas.map((a, i) => f.post(`2001:db8:77:${i + 1}::5`, a)));
    expect(answers.map((r) => r.status)).toEqual(Array(8).fill(201));
    const reasons = await f.reasonsOf();
    expect(reasons.filter((r) => r.length === 0)).toHaveLength(6);
    expect(reasons.filter((r) => r.includes('block_burst'))).toHaveLength(2);
  });

  it('a stockpile of base-price challenges sent at once buys no more than sent one at a time', async () => {
    const f = await firm();
    // One at a time, a base-price solution passes while the hour's price is at most twice it.
    let sequential = 0;
    while (!isTooEasy(DIFFICULTY.BASE, maxNumberFor(sequential))) sequential++;
    const stock = await Promise.all(Array.from({ length: 40 }, f.challenge));
    expect(stock.every((c) => c.maxnumber === DIFFICULTY.BASE)).toBe(true);
    const answers = await Promise.all(stock.map((c, i) => f.post(`198.18.${i}.1`, minted(c))));
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 201)).toHaveLength(sequential);
    expect(statuses.filter((s) => s === 400)).toHaveLength(40 - sequential);
  });
});
