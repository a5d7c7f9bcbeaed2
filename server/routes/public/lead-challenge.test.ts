import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, leads, mailMessages, outboxEvents } from '../../db/engine/schema.ts';
import { type Challenge, DIFFICULTY, solveChallenge } from '../../domain/leads/proof-of-work.ts';
import { mintAltcha } from '../../test-support/pow.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

async function embed() {
  const firm = await t.seed.firm();
  await t.database.db
    .update(accounts)
    .set({ alertEmails: ['intake@smithlaw.example'] })
    .where(eq(accounts.id, firm.account.id));
  const res = await t.json(
    '/v1/api/license/activate',
    { licenseKey: firm.publishableKey },
    { origin: 'https://smithlaw.com' },
  );
  const token = (await res.json()).token as string;
  // From `ip` when given (X-Forwarded-For, one trusted hop), else from no known network.
  const challenge = async (ip?: string) => {
    const r = await t.json(
      '/v1/api/leads/challenge',
      {},
      { authorization: `Bearer ${token}`, ...(ip ? { 'x-forwarded-for': ip } : {}) },
    );
    expect(r.status).toBe(200);
    return (await r.json()) as Challenge;
  };
  const solved = async () => {
    const { tries: _t, ...s } = solveChallenge(await challenge());
    return Buffer.from(JSON.stringify(s)).toString('base64');
  };
  const minted = async () => mintAltcha(t.services.licensing.pepper, await challenge());
  const post = (key: string, altcha: string | undefined, ip = '192.0.2.10', name = 'Zoë Ødegård') =>
    t.json(
      '/v1/api/leads',
      { calculator: 'rmd', name, email: 'zoe@example.com', state: 'NY', consent: true, altcha },
      { authorization: `Bearer ${token}`, 'idempotency-key': key, 'x-forwarded-for': ip },
    );
  return { firm, token, challenge, solved, minted, post };
}

/** The stored lead, and whether an alert or a webhook event was written for it. */
async function stored(leadId: string) {
  const [row] = await t.database.db.select().from(leads).where(eq(leads.id, leadId));
  const alerts = await t.database.db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.leadId, leadId), eq(mailMessages.kind, 'lead_alert')));
  const events = await t.database.db.select().from(outboxEvents).where(eq(outboxEvents.leadId, leadId));
  return {
    held: row!.quarantinedAt !== null,
    reasons: row!.quarantineReasons,
    alerted: alerts.length > 0,
    events,
  };
}

describe('proof of work on lead submission', () => {
  it('the challenge route needs an embed token and answers ALTCHA’s format', async () => {
    expect((await t.json('/v1/api/leads/challenge', {})).status).toBe(401);
    const { challenge } = await embed();
    const c = await challenge();
    expect(c).toMatchObject({ algorithm: 'SHA-256', maxnumber: DIFFICULTY.BASE });
    expect(Object.keys(c).sort()).toEqual(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
  });

  it('a spent challenge holds the lead; a retry with the same Idempotency-Key returns the first answer', async () => {
    const { solved, post } = await embed();
    const altcha = await solved();
    const first = await post('pow-key-0001', altcha);
    expect(first.status).toBe(201);
    const body = await first.json();
    expect(await stored(body.leadId)).toMatchObject({ held: false, alerted: true });
    // The network failed before the answer arrived: the widget retries with the same key…
    const retry = await post('pow-key-0001', altcha);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(body);
    // …or with a freshly solved challenge: the payload is not part of the request hash.
    const again = await post('pow-key-0001', await solved());
    expect(await again.json()).toEqual(body);
    // A new lead with a spent challenge: stored (nothing is dropped) but held, not alerted.
    const reuse = await post('pow-key-0002', altcha, '192.0.2.11');
    expect(reuse.status).toBe(201);
    const reused = await stored((await reuse.json()).leadId);
    expect(reused).toMatchObject({ held: true, reasons: ['no_proof_of_work'], alerted: false, events: [] });
  });

  it.each([
    ['no proof of work', 'none'],
    ['garbage', 'garbage'],
    ['a wrong number', 'tamper'],
    ['another license’s challenge', 'foreign'],
    ['an expired challenge (5 minutes)', 'expired'],
  ])('a lead with %s is stored held (no_proof_of_work), not alerted', async (_name, kind) => {
    const { solved, post } = await embed();
    let altcha: string | undefined;
    if (kind === 'garbage') altcha = Buffer.from('not json').toString('base64');
    if (kind === 'tamper') {
      const s = JSON.parse(Buffer.from(await solved(), 'base64').toString());
      altcha = Buffer.from(JSON.stringify({ ...s, number: s.number + 1 })).toString('base64');
    }
    if (kind === 'foreign') altcha = await (await embed()).minted();
    if (kind === 'expired') {
      altcha = await solved();
      t.clock.advance(5 * 60_000 + 1_000);
    }
    const res = await post(`pow-bad-${kind}`, altcha, `192.0.2.${20 + kind.length}`);
    expect(res.status).toBe(201);
    const lead = await stored((await res.json()).leadId);
    expect(lead).toMatchObject({ held: true, reasons: ['no_proof_of_work'], alerted: false, events: [] });
  });

  it('stockpiling: a challenge fetched in a quiet hour is refused during a flood; a new one is accepted', async () => {
    const { challenge, minted, solved, post } = await embed();
    // Quiet hour: the attacker stocks up on cheap challenges.
    const stock = await Promise.all([challenge(), challenge(), challenge()]);
    expect(stock.every((c) => c.maxnumber === DIFFICULTY.BASE)).toBe(true);
    // The flood: 25 leads in the hour put the price at 8× the base.
    for (let i = 0; i < 25; i++)
      expect(
        (await post(`pow-stock-${i}-key`, await minted(), `203.0.113.${i + 1}`, `Flood ${i}`)).status,
      ).toBe(201);
    const cheap = mintAltcha(t.services.licensing.pepper, stock[0]!);
    const refused = await post('pow-stock-spend', cheap, '198.51.100.77');
    expect(refused.status).toBe(400);
    const error = (await refused.json()).error;
    expect(error).toMatchObject({ code: 'INVALID_CHALLENGE', status: 400 });
    expect(error.details).toEqual([{ path: 'altcha', message: 'too_easy' }]);
    // The widget fetches a new challenge at today's price, solves it, sends again with the same key.
    const fresh = await challenge();
    expect(fresh.maxnumber).toBeGreaterThanOrEqual(8 * DIFFICULTY.BASE);
    const res = await post('pow-stock-spend', await solved(), '198.51.100.77');
    expect(res.status).toBe(201);
    expect(await stored((await res.json()).leadId)).toMatchObject({ held: false, alerted: true });
  });

  it('a free flood (no proof of work) raises nobody’s price: the next visitor pays the base price', async () => {
    const { challenge, post } = await embed();
    // Junk leads with the publishable key and no proof of work, from twelve networks: all held. 50
    // of them would put the price at the cap (2,000,000) if they counted.
    const answers = [];
    for (let i = 0; i < 50; i++)
      answers.push(await post(`pow-free-${i}-key`, undefined, `203.0.${(i % 12) + 1}.7`, `Junk ${i}`));
    expect(answers.every((r) => r.status === 201)).toBe(true);
    expect((await challenge()).maxnumber).toBe(DIFFICULTY.BASE);
  });

  it('a paid flood prices the flooding network, not a visitor from a fresh network (≤ 4× the base)', async () => {
    const { challenge, minted, post } = await embed();
    // 40 paid leads in the hour: 20 from one /24, 20 from twenty other networks.
    for (let i = 0; i < 40; i++) {
      const ip = i % 2 === 0 ? `203.0.113.${i + 1}` : `198.18.${i}.1`;
      expect((await post(`pow-net-${i}-key`, await minted(), ip, `Flood ${i}`)).status).toBe(201);
    }
    const fresh = (await challenge('192.0.2.99')).maxnumber;
    expect(fresh).toBeGreaterThanOrEqual(DIFFICULTY.BASE);
    expect(fresh).toBeLessThanOrEqual(4 * DIFFICULTY.BASE);
    // The /24 that sent half the flood pays steeply more.
    expect((await challenge('203.0.113.250')).maxnumber).toBeGreaterThanOrEqual(10 * DIFFICULTY.BASE);
    // No known network (no address, or a private one): the license-wide price, as before.
    expect((await challenge()).maxnumber).toBeGreaterThanOrEqual(16 * DIFFICULTY.BASE);
  });

  // Solves every challenge of a flood for real: minutes of hashing on a loaded 2-core machine.
  it('a flood makes the next challenge steeply dearer (≥ 10× after 30 leads in the hour)', async () => {
    const { challenge, solved, post } = await embed();
    for (let i = 0; i < 30; i++)
      await post(`pow-flood-${i}-key`, await solved(), `203.0.113.${i + 1}`, `Flood ${i}`);
    expect((await challenge()).maxnumber).toBeGreaterThanOrEqual(10 * DIFFICULTY.BASE);
  }, 120_000);
});
