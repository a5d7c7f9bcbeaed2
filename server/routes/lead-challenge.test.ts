import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type Challenge, DIFFICULTY, solveChallenge } from '../domain/leads/proof-of-work.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ TRUST_PROXY: 'true' });
});
afterAll(() => t.close());

async function embed() {
  const firm = await t.seed.firm();
  const res = await t.json(
    '/v1/api/license/activate',
    { licenseKey: firm.publishableKey },
    { origin: 'https://smithlaw.com' },
  );
  const token = (await res.json()).token as string;
  const challenge = async () => {
    const r = await t.json('/v1/api/leads/challenge', {}, { authorization: `Bearer ${token}` });
    expect(r.status).toBe(200);
    return (await r.json()) as Challenge;
  };
  const solved = async () => {
    const { tries: _t, ...s } = solveChallenge(await challenge());
    return Buffer.from(JSON.stringify(s)).toString('base64');
  };
  const post = (key: string, altcha: string | undefined, ip = '192.0.2.10', name = 'Zoë Ødegård') =>
    t.json(
      '/v1/api/leads',
      { calculator: 'rmd', name, email: 'zoe@example.com', state: 'NY', consent: true, altcha },
      { authorization: `Bearer ${token}`, 'idempotency-key': key, 'x-forwarded-for': ip },
    );
  return { firm, token, challenge, solved, post };
}

describe('proof of work on lead submission', () => {
  it('the challenge route needs an embed token and answers ALTCHA’s format', async () => {
    expect((await t.json('/v1/api/leads/challenge', {})).status).toBe(401);
    const { challenge } = await embed();
    const c = await challenge();
    expect(c).toMatchObject({ algorithm: 'SHA-256', maxnumber: DIFFICULTY.BASE });
    expect(Object.keys(c).sort()).toEqual(['algorithm', 'challenge', 'maxnumber', 'salt', 'signature']);
  });

  it('a spent challenge is refused; a retry with the same Idempotency-Key returns the first answer', async () => {
    const { solved, post } = await embed();
    const altcha = await solved();
    const first = await post('pow-key-0001', altcha);
    expect(first.status).toBe(201);
    const body = await first.json();
    // The network failed before the answer arrived: the widget retries with the same key…
    const retry = await post('pow-key-0001', altcha);
    expect(retry.status).toBe(201);
    expect(retry.headers.get('idempotent-replayed')).toBe('true');
    expect(await retry.json()).toEqual(body);
    // …or with a freshly solved challenge: the payload is not part of the request hash.
    const again = await post('pow-key-0001', await solved());
    expect(await again.json()).toEqual(body);
    // A new lead with a spent challenge: refused.
    const reuse = await post('pow-key-0002', altcha);
    expect(reuse.status).toBe(409);
    expect((await reuse.json()).error).toMatchObject({ code: 'CHALLENGE_SPENT', status: 409 });
  });

  it.each([
    ['garbage', Buffer.from('not json').toString('base64')],
    ['a wrong number', 'tamper'],
  ])('refuses %s with INVALID_CHALLENGE', async (_name, kind) => {
    const { solved, post } = await embed();
    let altcha = kind;
    if (kind === 'tamper') {
      const s = JSON.parse(Buffer.from(await solved(), 'base64').toString());
      altcha = Buffer.from(JSON.stringify({ ...s, number: s.number + 1 })).toString('base64');
    }
    const res = await post(`pow-bad-${kind.slice(0, 6)}`, altcha);
    expect(res.status).toBe(400);
    expect((await res.json()).error).toMatchObject({ code: 'INVALID_CHALLENGE', status: 400 });
  });

  it('a flood makes the next challenge steeply dearer (≥ 10× after 30 leads in the hour)', async () => {
    const { challenge, solved, post } = await embed();
    for (let i = 0; i < 30; i++)
      await post(`pow-flood-${i}-key`, await solved(), `203.0.113.${i + 1}`, `Flood ${i}`);
    expect((await challenge()).maxnumber).toBeGreaterThanOrEqual(10 * DIFFICULTY.BASE);
  });
});
