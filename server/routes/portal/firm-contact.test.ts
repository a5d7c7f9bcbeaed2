import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('portal: Settings → Firm → Contact', () => {
  it('stores each field as people write it, normalised, and clears one without touching the rest', async () => {
    const { account } = await t.seed.firm();
    const admin = await portalCaller(t, account.id, 'admin');
    const before = (await admin.call('GET', 'settings/firm')).body;
    expect(before.contact).toEqual({});
    const saved = await admin.call('PATCH', 'settings/firm', {
      contact: {
        phone: ' +1 (212) 555-0143 ext. 12 ',
        email: 'Office@SmithLaw.com',
        website: 'www.smithlaw.com/',
        address: '100 Main Street\r\n\r\n  New York, NY 10001 ',
        callToAction: 'Call us to discuss your estate plan',
        timeZone: 'america/new_york',
      },
    });
    expect(saved.status).toBe(200);
    expect(saved.body.contact).toEqual({
      phone: '+1 (212) 555-0143 ext. 12',
      email: 'office@smithlaw.com',
      website: 'https://www.smithlaw.com',
      address: '100 Main Street\nNew York, NY 10001',
      callToAction: 'Call us to discuss your estate plan',
      timeZone: 'America/New_York',
    });
    // The sections save separately: the contact section sent nothing else, so nothing else moved.
    expect(saved.body.name).toBe(before.name);
    expect(saved.body.alertEmails).toEqual(before.alertEmails);
    const cleared = await admin.call('PATCH', 'settings/firm', { contact: { phone: '', address: null } });
    expect(cleared.body.contact).toEqual({
      email: 'office@smithlaw.com',
      website: 'https://www.smithlaw.com',
      callToAction: 'Call us to discuss your estate plan',
      timeZone: 'America/New_York',
    });
  });

  it.each([
    ['phone', 'call me maybe'],
    ['phone', '12345'],
    ['email', 'office at smithlaw'],
    ['website', 'javascript:alert(1)'],
    ['website', 'ftp://smithlaw.com'],
    ['website', 'https://user:pw@smithlaw.com'],
    ['address', 'one\ntwo\nthree\nfour\nfive'],
    ['callToAction', 'Call us\r\nBcc: everyone@example.com'],
    ['callToAction', 'x'.repeat(121)],
    ['timeZone', 'Mars/Olympus_Mons'],
    ['timeZone', '../../etc/passwd'],
  ])('refuses %s %j with the field named', async (field, value) => {
    const { account } = await t.seed.firm();
    const admin = await portalCaller(t, account.id, 'admin');
    const res = await admin.call('PATCH', 'settings/firm', { contact: { [field]: value } });
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(JSON.stringify(res.body.error)).toContain(`contact.${field}`);
    expect((await admin.call('GET', 'settings/firm')).body.contact).toEqual({});
  });

  it('is the admins’ to change; a viewer reads it', async () => {
    const { account } = await t.seed.firm();
    const viewer = await portalCaller(t, account.id, 'viewer');
    expect(
      (await viewer.call('PATCH', 'settings/firm', { contact: { phone: '+1 212 555 0143' } })).status,
    ).toBe(403);
    expect((await viewer.call('GET', 'settings/firm')).body.contact).toEqual({});
  });
});
