import { existsSync, mkdtempSync, readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { newId } from '../../db/engine/ids.ts';
import { putMembership, upsertUser } from '../../db/repos/users-repo.ts';
import { runRetention } from '../../domain/delivery/retention.ts';
import { runDeliveryOnce } from '../../domain/delivery/worker.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/** Sign-in and invitation mails in DATA_DIR/outbox carry live links: retention removes them once dead. */
describe('retention of sign-in and invitation mail files', () => {
  let ctx: TestContext;
  let outbox: string;
  beforeAll(async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'svc-mail-retention-'));
    outbox = join(dataDir, 'outbox');
    ctx = await createTestContext({ DATA_DIR: dataDir });
    const firm = await ctx.seed.firm();
    const user = await upsertUser(ctx.database.db, {
      id: newId('user'),
      email: 'keeper@firm.example',
      createdAt: ctx.clock.now(),
    });
    await putMembership(ctx.database.db, {
      accountId: firm.account.id,
      userId: user.id,
      role: 'admin',
      invitedBy: null,
      at: ctx.clock.now(),
    });
  });
  afterAll(() => ctx.close());

  const drain = async () => {
    while ((await runDeliveryOnce(ctx.services.delivery)).mails > 0);
  };

  it('a sign-in mail file stays while its link works and goes once it has expired', async () => {
    const start = ctx.clock.now();
    const res = await ctx.app.request('/v1/portal/auth/email', {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: ctx.services.config.publicPortalUrl },
      body: JSON.stringify({ email: 'keeper@firm.example' }),
    });
    expect(res.status).toBe(202);
    await drain();
    const [file] = readdirSync(outbox);
    expect(file).toBeDefined();
    try {
      ctx.clock.set(new Date(start.getTime() + 10 * 60_000).toISOString());
      await runRetention(ctx.services.delivery);
      expect(existsSync(join(outbox, file!))).toBe(true);
      ctx.clock.set(new Date(start.getTime() + 16 * 60_000).toISOString());
      const report = await runRetention(ctx.services.delivery);
      expect(report.portalMails).toBe(1);
      expect(existsSync(join(outbox, file!))).toBe(false);
    } finally {
      ctx.clock.set(start.toISOString());
    }
  });
});
