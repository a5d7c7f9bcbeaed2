import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, mailMessages, webhookDeliveries } from '../../db/engine/schema.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import { enqueueEvent } from '../outbox/outbox.ts';
import type { DeliveryDeps } from './deps.ts';
import { checkEndpointUrl } from './endpoints.ts';
import { PRIVATE_HOST_REFUSAL } from './private-hosts.ts';
import { runDeliveryOnce } from './worker.ts';

describe('a webhook to a private host, refused when registered, by its name alone', () => {
  it.each([
    'http://localhost/hooks',
    'https://localhost:8443/hooks',
    'https://app.localhost/hooks',
    'https://hooks.test/x',
    'https://printer.local/x',
    'https://metadata.google.internal/computeMetadata',
    'https://nas.home.arpa/x',
    'https://intranet/x',
    'https://10.0.0.5/x',
    'https://192.168.1.20/x',
    'https://169.254.169.254/latest/meta-data',
    'https://[::1]/x',
    'https://[fd00::1]/x',
    'https://[::ffff:127.0.0.1]/x',
    'https://127.1/x',
  ])('%s is refused, naming WEBHOOK_ALLOW_PRIVATE_HOSTS', (url) => {
    expect(() => checkEndpointUrl(url, [])).toThrow(/WEBHOOK_ALLOW_PRIVATE_HOSTS/);
  });

  it('takes a public name without resolving it, and a private host the operator allowed', () => {
    // A name nobody can resolve is still taken: asking DNS here would tell the firm which names exist.
    expect(checkEndpointUrl('https://hooks.no-such-name-xyz.example/svc', [])).toBe(
      'https://hooks.no-such-name-xyz.example/svc',
    );
    expect(checkEndpointUrl('http://localhost:9999/hooks', ['localhost'])).toBe(
      'http://localhost:9999/hooks',
    );
    expect(() => checkEndpointUrl('http://hooks.example.com/svc', [])).toThrow(/https/);
  });
});

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext({ WEBHOOK_TIMEOUT_MS: '2000' });
});
afterAll(() => t.close());

describe('the portal and the delivery worker', () => {
  it('the portal refuses http://localhost with the message in the field', async () => {
    const { account } = await t.seed.firm();
    const owner = await portalCaller(t, account.id, 'owner');
    const res = await owner.call('POST', 'webhooks', {
      url: 'http://localhost:8080/hooks',
      events: ['lead.created'],
    });
    expect([res.status, res.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
    expect(res.body.error.details).toEqual([{ path: 'url', message: PRIVATE_HOST_REFUSAL }]);
  });

  it('a name that resolves to a private address at delivery fails once, for good, and disables the endpoint', async () => {
    const { account } = await t.seed.firm();
    await t.database.db
      .update(accounts)
      .set({ alertEmails: ['ops@smithlaw.example'] })
      .where(eq(accounts.id, account.id));
    const owner = await portalCaller(t, account.id, 'owner');
    const created = await owner.call('POST', 'webhooks', {
      url: 'https://hooks.rebinding.example/svc',
      events: ['lead.updated'],
    });
    expect(created.status).toBe(200);
    const endpointId = created.body.endpoint.id as string;
    // Public at registration, 10.0.0.5 now (DNS rebinding, or a name pointed inward).
    const deps: DeliveryDeps = {
      ...t.services.delivery,
      resolver: async () => [{ address: '10.0.0.5', family: 4 }],
    };
    await enqueueEvent(t.database.db, {
      accountId: account.id,
      type: 'lead.updated',
      data: {},
      test: false,
      quarantined: false,
      at: t.clock.now(),
    });
    await runDeliveryOnce(deps);
    const deliveries = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(deliveries.map((d) => [d.status, d.attempts])).toEqual([['failed', 1]]);
    const endpoint = (await owner.call('GET', 'webhooks')).body.data.find(
      (e: { id: string }) => e.id === endpointId,
    );
    expect(endpoint).toMatchObject({ status: 'disabled', disabledReason: PRIVATE_HOST_REFUSAL });
    const [mail] = await t.database.db
      .select()
      .from(mailMessages)
      .where(eq(mailMessages.accountId, account.id));
    expect(mail).toMatchObject({ kind: 'endpoint_disabled', body: { reason: PRIVATE_HOST_REFUSAL } });
    // No retry is scheduled: a day later nothing more is attempted.
    t.clock.advance(86_400_000);
    await runDeliveryOnce(deps);
    const [after] = await t.database.db
      .select()
      .from(webhookDeliveries)
      .where(eq(webhookDeliveries.endpointId, endpointId));
    expect(after!.attempts).toBe(1);
  });
});
