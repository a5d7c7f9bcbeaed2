import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RULE_CHANGES, type RuleChange } from '../../../calculators/rules-changelog.ts';
import { recordedRuleChanges } from '../../db/repos/rule-changes-repo.ts';
import { createAdminRoutes } from '../../routes/admin/index.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { startReceiver } from '../../test-support/webhook-receiver.ts';
import { runDeliveryOnce } from '../delivery/worker.ts';
import { FIRM_ONLY_EVENT_TYPES } from '../outbox/event-types.ts';
import { announceRuleChanges, changelogWith } from './announce.ts';

const TOKEN = 'admin-token-'.padEnd(40, 'x');
let t: TestContext;

beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1', WEBHOOK_TIMEOUT_MS: '2000' });
  t.app.route('/', createAdminRoutes(t.services, TOKEN));
  // Standard Webhooks verifiers refuse timestamps more than 5 minutes from their own clock.
  t.clock.set(new Date());
});
afterAll(() => t.close());

const admin = async (path: string, body: unknown) => {
  const res = await t.app.request(path, {
    method: 'POST',
    headers: { authorization: `Bearer ${TOKEN}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { endpoint: { id: string }; secret: string };
};

/** A firm whose visitor computed an estate tax for `state` (a stored result) and left a lead on it. */
async function firmUsing(state: string) {
  const f = await t.seed.firm();
  const activated = await t.json(
    '/v1/api/license/activate',
    { licenseKey: f.publishableKey },
    { origin: 'https://smithlaw.com' },
  );
  const embed = (await activated.json()).token as string;
  const calc = await t.json(
    '/v1/api/calc/estimate',
    {
      calculator: 'estate-tax',
      state,
      inputs: { estateValue: 12_000_000, state, dateOfDeath: '2027-01-01' },
    },
    { authorization: `Bearer ${embed}` },
  );
  expect(calc.status).toBe(200);
  const result = (await calc.json()) as { resultId: string; ruleSet: { id: string; label: string } };
  const lead = await t.json(
    '/v1/api/leads',
    {
      calculator: 'estate-tax',
      resultId: result.resultId,
      name: 'Zoë Ødegård',
      email: 'zoe@example.com',
      state,
      consent: true,
      consentText: 'I agree to be contacted.',
    },
    { authorization: `Bearer ${embed}`, 'idempotency-key': `k-${state}-${f.account.id}` },
  );
  expect(lead.status).toBe(201);
  return { ...f, result, leadId: ((await lead.json()) as { leadId: string }).leadId };
}

/** "A release that changes one figure": Washington's 2027 exclusion corrected. */
const release: RuleChange = {
  id: 'estate-tax/2026-12-15/test-wa-2027',
  date: '2026-12-15',
  kind: 'corrected',
  figure: 'Washington exclusion, deaths in 2027',
  before: '$3,000,000',
  after: '$3,100,000',
  status: 'primary',
  source: { title: 'Washington Department of Revenue (test)' },
  calculators: ['estate-tax'],
  states: ['WA'],
  summary: 'Washington’s exclusion for 2027 deaths is $3,100,000.',
};

describe('a firm told when its calculators’ law changes', () => {
  it('raises the banner and the rules.updated event for the firm whose calculator uses the figure, and for no other', async () => {
    const receiver = await startReceiver();
    try {
      // Record this build's changelog first: what the servers do at start.
      await announceRuleChanges(t.database.db, t.clock.now());
      const wa = await firmUsing('WA');
      const ny = await firmUsing('NY');
      // Washington firm: an endpoint made before it chose rules.updated, and one that chose it.
      await admin('/admin/v1/webhooks', {
        accountId: wa.account.id,
        url: receiver.url,
        events: ['lead.created'],
      });
      const chosen = await admin('/admin/v1/webhooks', {
        accountId: wa.account.id,
        url: `${receiver.url}?rules`,
        events: ['rules.updated'],
      });
      await admin('/admin/v1/webhooks', {
        accountId: ny.account.id,
        url: `${receiver.url}?ny`,
        events: ['rules.updated'],
      });
      await runDeliveryOnce(t.services.delivery);
      receiver.requests.length = 0;

      const outcome = await announceRuleChanges(t.database.db, t.clock.now(), [...RULE_CHANGES, release]);
      expect(outcome.recorded).toEqual([release.id]);
      expect(outcome.told[release.id]).toEqual([wa.account.id]);
      await runDeliveryOnce(t.services.delivery);
      const events = receiver.requests.filter((r) => JSON.parse(r.body).type === 'rules.updated');
      expect(events).toHaveLength(1);
      // Signed like every event: a Standard Webhooks verifier with the endpoint's secret accepts it.
      const body = new Webhook(chosen.secret).verify(events[0]!.body, {
        'webhook-id': String(events[0]!.headers['webhook-id']),
        'webhook-timestamp': String(events[0]!.headers['webhook-timestamp']),
        'webhook-signature': String(events[0]!.headers['webhook-signature']),
      }) as { type: string; data: Record<string, unknown> };
      expect(body).toMatchObject({
        type: 'rules.updated',
        data: { id: release.id, before: '$3,000,000', after: '$3,100,000', states: ['WA'] },
      });
      expect(receiver.requests.every((r) => JSON.parse(r.body).type === 'rules.updated')).toBe(true);

      const waMember = await portalCaller(t, wa.account.id, 'admin');
      const nyMember = await portalCaller(t, ny.account.id, 'admin');
      const banner = await waMember.call('GET', 'rule-notices');
      expect(banner.body.data.map((n: { id: string }) => n.id)).toEqual([release.id]);
      expect(banner.body.data[0]).toMatchObject({ summary: release.summary, after: '$3,100,000' });
      expect((await nyMember.call('GET', 'rule-notices')).body.data).toEqual([]);

      // The lead keeps the rules it was computed with: nothing is recomputed or relabelled.
      const lead = await waMember.call('GET', `leads/${wa.leadId}`);
      expect(lead.body.result.rules).toMatchObject({
        id: wa.result.ruleSet.id,
        label: wa.result.ruleSet.label,
        taxYear: 2027,
      });
      expect(lead.body.result.rules.id).toBe('estate-tax-2027+WA-2027-01-01');

      // Dismissed for the whole firm; another firm cannot dismiss it.
      expect((await nyMember.call('POST', 'rule-notices/dismiss', { id: release.id })).status).toBe(404);
      expect((await waMember.call('POST', 'rule-notices/dismiss', { id: release.id })).status).toBe(200);
      expect((await waMember.call('GET', 'rule-notices')).body.data).toEqual([]);

      // A second start records and announces nothing again.
      expect(
        (await announceRuleChanges(t.database.db, t.clock.now(), [...RULE_CHANGES, release])).recorded,
      ).toEqual([]);
      const recorded = await recordedRuleChanges(t.database.db);
      expect(recorded.find((r) => r.id === release.id)?.firmsTold).toBe(1);
    } finally {
      await receiver.close();
    }
  });

  it('records a change touching no calculator, or marked as before announcements, without telling anyone', async () => {
    const outcome = await announceRuleChanges(t.database.db, t.clock.now(), [
      { ...release, id: 'estate-tax/2026-12-16/test-none', calculators: [] },
      { ...release, id: 'estate-tax/2026-12-16/test-quiet', announce: false },
    ]);
    expect(outcome.recorded.sort()).toEqual([
      'estate-tax/2026-12-16/test-none',
      'estate-tax/2026-12-16/test-quiet',
    ]);
    expect(outcome.told).toEqual({ 'estate-tax/2026-12-16/test-none': [] });
  });

  it('keeps rules.updated to the firm’s own endpoints: listed as firm-only, never for a CRM destination', () => {
    expect(FIRM_ONLY_EVENT_TYPES).toContain('rules.updated');
  });

  it('takes extra entries only outside production', () => {
    const raw = JSON.stringify([release]);
    expect(changelogWith(raw, 'test').at(-1)?.id).toBe(release.id);
    expect(changelogWith(undefined, 'production')).toBe(RULE_CHANGES);
    expect(() => changelogWith(raw, 'production')).toThrow(/refused with NODE_ENV=production/);
    expect(() => changelogWith('{"id":1}', 'test')).toThrow(/JSON array/);
  });
});
