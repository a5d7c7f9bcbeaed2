import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, leads, mailMessages, outboxEvents } from '../../db/engine/schema.ts';
import type { DeliveryDeps } from '../../domain/delivery/deps.ts';
import { runDeliveryOnce } from '../../domain/delivery/worker.ts';
import type { OutgoingMail } from '../../mail/mailer.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

// A trial license with a small daily figure, so the flood crosses it (the issue measured 100/day).
const QUOTA = 10;
let t: TestContext;
let deps: DeliveryDeps;
const sent: OutgoingMail[] = [];
beforeAll(async () => {
  t = await createTestContext({
    TRUST_PROXY: 'true',
    PLANS: JSON.stringify({ trial: { leadsPerDay: QUOTA } }),
  });
  deps = {
    ...t.services.delivery,
    mailer: {
      kind: 'files',
      send: async (mail) => {
        sent.push(mail);
        return { filePath: null };
      },
      close: () => {},
    },
  };
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';
let keys = 0;

async function trialFirm() {
  const firm = await t.seed.firm({ plan: 'trial' });
  await t.database.db
    .update(accounts)
    .set({ alertEmails: ['intake@smithlaw.example'] })
    .where(eq(accounts.id, firm.account.id));
  const res = await t.json(
    '/v1/api/license/activate',
    { licenseKey: firm.publishableKey },
    { origin: ORIGIN },
  );
  const token = (await res.json()).token as string;
  const post = async (ip: string, lead: { name: string; email: string }) => {
    const r = await t.json(
      '/v1/api/leads',
      { calculator: 'rmd', state: 'NY', consent: true, ...lead },
      { authorization: `Bearer ${token}`, 'x-forwarded-for': ip, 'idempotency-key': `spam-${++keys}-key` },
    );
    expect(r.status).toBe(201);
    return (await r.json()).leadId as string;
  };
  return { ...firm, post };
}

const deliverAll = async () => {
  while ((await runDeliveryOnce(deps)).mails > 0);
};

const mailsOf = (accountId: string, kind: string) =>
  t.database.db
    .select()
    .from(mailMessages)
    .where(and(eq(mailMessages.accountId, accountId), eq(mailMessages.kind, kind as 'lead_alert')));

describe('spam cannot silence a firm', () => {
  // Solves every challenge of a flood for real: minutes of hashing on a loaded 2-core machine.
  it('after a flood from twelve addresses, a fresh visitor’s lead is live and alerted; one digest mail', async () => {
    const firm = await trialFirm();
    // Twelve addresses in twelve networks (the worst case for per-network counting), nine leads each;
    // a third of the names carry links, the rest look like people.
    for (let a = 0; a < 12; a++)
      for (let i = 0; i < 9; i++)
        await firm.post(`203.0.${a + 1}.7`, {
          name: i % 3 === 0 ? `Win big at https://spam${a}.example/${i}` : `Jordan Lee ${a}-${i}`,
          email: `junk${a}.${i}@example.net`,
        });
    const visitor = await firm.post('192.0.2.55', { name: 'Zoë Ødegård', email: 'zoe@example.com' });

    const all = await t.database.db.select().from(leads).where(eq(leads.accountId, firm.account.id));
    expect(all).toHaveLength(12 * 9 + 1); // nothing a visitor sends is dropped
    const row = all.find((l) => l.id === visitor)!;
    expect(row.quarantinedAt).toBeNull();
    expect(row.digestId).toBeNull();
    const alerts = await mailsOf(firm.account.id, 'lead_alert');
    expect(alerts.some((m) => m.leadId === visitor)).toBe(true);
    // The attacker's leads: held with reasons, or live and grouped past the daily figure.
    const held = all.filter((l) => l.quarantinedAt);
    expect(held.every((l) => l.quarantineReasons.length > 0)).toBe(true);
    expect(held.filter((l) => l.name.includes('spam')).length).toBe(12 * 3);
    expect(alerts.length).toBeLessThanOrEqual(QUOTA + 12 + 1);
    expect(await mailsOf(firm.account.id, 'lead_digest')).toHaveLength(1);

    // The one `leads.digest` event carries enough to act on: how many, why, which, and where.
    const digested = all.filter((l) => l.digestId).map((l) => l.id);
    expect(digested.length).toBeGreaterThan(0);
    const events = await t.database.db
      .select()
      .from(outboxEvents)
      .where(and(eq(outboxEvents.accountId, firm.account.id), eq(outboxEvents.type, 'leads.digest')));
    expect(events).toHaveLength(1);
    const data = events[0]!.payload.data as Record<string, unknown>;
    expect(data.count).toBe(digested.length);
    expect([...(data.leadIds as string[])].sort()).toEqual([...digested].sort());
    expect(data.reason).toBe('past_daily_figure');
    expect(data.dailyFigure).toBe(QUOTA);
    expect(String(data.portalUrl)).toMatch(/^https?:\/\/[^ ]+\/portal\/leads\?from=2026-03-01$/);

    // The hour ends: one digest mail naming each lead (id, name defanged) and the portal link.
    t.clock.advance(3_600_000);
    await deliverAll();
    const digest = sent.filter((m) => m.subject.includes('(digest)'));
    expect(digest).toHaveLength(1);
    expect(digest[0]!.to).toEqual(['intake@smithlaw.example']);
    expect(digest[0]!.subject).toContain(`${digested.length} more new leads`);
    for (const part of [digest[0]!.text, digest[0]!.html]) {
      expect(part).toContain('Jordan Lee');
      for (const id of digested) expect(part).toContain(id);
      expect(part).toContain('/portal/leads?from=2026-03-01');
    }

    // The day ends: one quarantine report lists the held leads with reasons, links defanged.
    t.clock.advance(11 * 3_600_000);
    await deliverAll();
    const report = sent.filter((m) => m.subject.includes('held as possible spam'));
    expect(report).toHaveLength(1);
    for (const part of [report[0]!.text, report[0]!.html]) {
      expect(part).toContain('hxxps://spam0[.]example/0');
      expect(part).not.toMatch(/https?:\/\/spam|spam\d+\.example/);
      expect(part).toContain('a link in the name');
      expect(part).toContain('many leads from one network');
    }
  }, 120_000);

  it('leads held for their own signals carry reasons; the license total holds nothing back', async () => {
    const firm = await trialFirm();
    const burst: string[] = [];
    for (let i = 0; i < 5; i++)
      burst.push(await firm.post('198.51.100.9', { name: `Sam ${i}`, email: `s${i}@example.com` }));
    const link = await firm.post('198.51.101.1', { name: 'see www.pills.example', email: 'p@example.com' });
    const throwaway = await firm.post('198.51.102.1', { name: 'Pat Doe', email: 'pat@mailinator.com' });
    const v6 = [];
    for (let i = 1; i <= 4; i++)
      v6.push(await firm.post(`2001:db8:5:5::${i}`, { name: `Kim ${i}`, email: `k${i}@example.com` }));
    const reasons = async (id: string) =>
      (await t.database.db.select().from(leads).where(eq(leads.id, id)))[0]!.quarantineReasons;
    expect(await Promise.all(burst.map(reasons))).toEqual([[], [], [], ['network_burst'], ['network_burst']]);
    expect(await reasons(link)).toEqual(['link_in_name']);
    expect(await reasons(throwaway)).toEqual(['disposable_email']);
    expect(await reasons(v6[3]!)).toEqual(['network_burst']); // a whole /64 is one source
  });

  it('IPv6 farming: one /48 rotating through its /64s is held past 6 leads an hour; an office never is', async () => {
    const firm = await trialFirm();
    const reasons = async (id: string) =>
      (await t.database.db.select().from(leads).where(eq(leads.id, id)))[0]!.quarantineReasons;
    // An attacker with a /48 sends each lead from another /64 (65,536 of them).
    const farmed = [];
    for (let i = 1; i <= 9; i++)
      farmed.push(
        await firm.post(`2001:db8:77:${i.toString(16)}::5`, { name: `Lee ${i}`, email: `l${i}@example.com` }),
      );
    expect(await Promise.all(farmed.map(reasons))).toEqual([
      [],
      [],
      [],
      [],
      [],
      [],
      ['block_burst'],
      ['block_burst'],
      ['block_burst'],
    ]);
    // A neighbouring /48 of the same provider is another block.
    expect(
      await reasons(await firm.post('2001:db8:78:1::5', { name: 'Ann Roe', email: 'a@example.com' })),
    ).toEqual([]);
    // A law firm's office: a few visitors on a few LANs of one /48, two behind one IPv4 /24.
    const office = [
      await firm.post('2001:db8:99:1::10', { name: 'Dr.Jones', email: 'j@example.com' }),
      await firm.post('2001:db8:99:1::11', { name: 'St.John Smith', email: 's@example.com' }),
      await firm.post('2001:db8:99:2::10', { name: 'Mary-Jane O’Neil', email: 'm@example.com' }),
      await firm.post('2001:db8:99:3::10', { name: 'J.R.R. Tolkien', email: 't@example.com' }),
      await firm.post('198.51.100.200', { name: 'Pat Kim', email: 'p@example.com' }),
      await firm.post('198.51.100.201', { name: 'Kim Pat', email: 'k@example.com' }),
    ];
    expect(await Promise.all(office.map(reasons))).toEqual([[], [], [], [], [], []]);
  });
});
