import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('Settings → Destinations over the portal API', () => {
  it('owners manage and see the credential’s last four; viewers see name, status and last delivery only', async () => {
    const { account } = await t.seed.firm();
    const other = await t.seed.firm();
    const owner = await portalCaller(t, account.id, 'owner');
    const viewer = await portalCaller(t, account.id, 'viewer');
    const stranger = await portalCaller(t, other.account.id, 'owner');
    const created = await owner.call('POST', 'destinations', {
      vendor: 'hubspot',
      credential: 'pat-na1-abcdefgh1234',
      settings: { portalId: '62515', formGuid: '78c2891f-ebdd-44c0-bd94-15c012bbbfbf' },
      name: 'Web form',
    });
    expect(created.status).toBe(200);
    const id = created.body.destination.id as string;
    expect(JSON.stringify(created.body)).not.toContain('pat-na1-abcdefgh1234');
    expect((await owner.call('POST', `destinations/${id}/test`)).status).toBe(200);

    const mine = await owner.call('GET', 'destinations');
    expect(mine.body.canManage).toBe(true);
    expect(mine.body.data[0]).toMatchObject({ id, credentialLast4: '1234', settings: { portalId: '62515' } });
    expect(mine.body.vendors.map((v: { vendor: string }) => v.vendor)).toEqual([
      'clio-grow',
      'hubspot',
      'salesforce',
      'wealthbox',
    ]);

    const seen = await viewer.call('GET', 'destinations');
    expect(seen.body.canManage).toBe(false);
    expect(seen.body.vendors).toEqual([]);
    expect(Object.keys(seen.body.data[0]).sort()).toEqual(
      ['disabledReason', 'id', 'label', 'lastDelivery', 'name', 'status', 'vendor'].sort(),
    );
    expect(seen.body.data[0].lastDelivery).toMatchObject({ status: 'pending', test: true });
    expect((await viewer.call('GET', `destinations/${id}/deliveries`)).status).toBe(403);
    // Nor through the webhooks' log, which viewers may read.
    expect((await viewer.call('GET', `webhooks/${id}/deliveries`)).status).toBe(404);
    expect((await viewer.call('PATCH', `destinations/${id}`, { enabled: false })).status).toBe(403);

    // Another firm's destination does not exist for this firm.
    expect((await stranger.call('PATCH', `destinations/${id}`, { enabled: false })).status).toBe(404);
    expect((await stranger.call('GET', `destinations/${id}/deliveries`)).status).toBe(404);
    expect((await stranger.call('GET', 'destinations')).body.data).toEqual([]);

    expect(
      (await owner.call('PATCH', `destinations/${id}`, { enabled: false })).body.destination.status,
    ).toBe('disabled');
    const activity = await owner.call('GET', 'activity?kind=settings');
    expect(JSON.stringify(activity.body)).toContain('destination.disabled');
  });
});
