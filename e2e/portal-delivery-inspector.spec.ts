import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../server/main/servers.ts';
import { startReceiver } from '../server/test-support/webhook-receiver.ts';
import {
  axeViolations,
  newPhoneContext,
  screenshot,
  signInWithLink,
  startPortalStack,
  WAIT,
  watchPage,
} from './support/portal.ts';
import { launchChromium } from './support/stack.ts';

let stack: RunningServers;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: Awaited<ReturnType<typeof signInWithLink>>;

const COOKIE = 'crm_session=c00kie-value-42';
const TOKEN = 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJjcm0ifQ.c2lnbmF0dXJlLXgtNDI';

beforeAll(async () => {
  [stack, browser, receiver] = await Promise.all([
    startPortalStack({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1', DELIVERY_POLL_MS: '200' }),
    launchChromium(),
    // A receiver whose token expired: it answers 401 with a cookie and a token in the body.
    startReceiver((_req, _n, res) => {
      res
        .writeHead(401, { 'content-type': 'application/json', 'set-cookie': COOKIE, 'x-request-id': 'req-7' })
        .end(JSON.stringify({ error: 'token expired', refresh_token: TOKEN }));
      return 401;
    }),
  ]);
  owner = await signInWithLink(browser, stack.demoSignInLink!);
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.close();
});

/** Opens the inspector of the newest delivery from the keyboard: focus, Enter. */
async function openInspector(page: Page) {
  const card = page.getByRole('region', { name: `Endpoint ${receiver.url}` });
  const inspect = card.getByRole('button', { name: /Inspect/ }).first();
  await inspect.focus();
  await page.keyboard.press('Enter');
  const dialog = page.getByRole('dialog');
  await dialog.waitFor(WAIT);
  return { dialog, inspect };
}

describe('the delivery inspector (webhooks page)', () => {
  it('shows the next retry and the request and response of each attempt, credentials redacted; keyboard and axe clean at desktop and phone width', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    const card = page.getByRole('region', { name: `Endpoint ${receiver.url}` });
    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.requests.length, WAIT).toBe(1);
    await expect.poll(() => card.locator('tbody tr').first().textContent(), WAIT).toContain('401');
    // A failed attempt: the delivery waits for its retry, and the page says when.
    const nextRetry = card.locator('tbody tr').first().locator('td[data-label="Next retry"] time');
    await expect.poll(() => nextRetry.count(), WAIT).toBe(1);
    expect(Date.parse((await nextRetry.getAttribute('datetime'))!)).toBeGreaterThan(Date.now());

    const { dialog, inspect } = await openInspector(page);
    const text = (await dialog.textContent())!;
    expect(text).toContain('Next attempt');
    expect(text).toContain('HTTP 401');
    expect(text).toContain('webhook-id: msg_');
    expect(text).toContain('webhook-signature: [redacted]');
    expect(text).toContain('set-cookie: [redacted]');
    expect(text).toContain('x-request-id: req-7');
    expect(text).toContain('"refresh_token": "[redacted]"');
    expect(text).toContain('"test": true');
    for (const secret of [
      'c00kie-value-42',
      TOKEN,
      String(receiver.requests[0]!.headers['webhook-signature']),
    ])
      expect(text).not.toContain(secret);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'webhook-inspector-desktop');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count(), WAIT).toBe(0);
    await expect.poll(() => inspect.evaluate((b) => b === document.activeElement), WAIT).toBe(true);

    const phone = await newPhoneContext(browser, owner.context);
    const errors = watchPage(phone);
    await phone.goto(page.url());
    await expect.poll(() => phone.locator('.loading').count(), WAIT).toBe(0);
    const small = await openInspector(phone);
    expect(await small.dialog.textContent()).toContain('set-cookie: [redacted]');
    expect(await axeViolations(phone)).toEqual([]);
    const sideways = await phone.evaluate(
      () => (document.querySelector('dialog')?.getBoundingClientRect().right ?? 0) > window.innerWidth + 1,
    );
    expect(sideways).toBe(false);
    await screenshot(phone, 'webhook-inspector-phone');
    await phone.getByRole('button', { name: 'Close' }).click();
    await expect.poll(() => small.dialog.count(), WAIT).toBe(0);
    expect(errors.pageErrors).toEqual([]);
    await phone.context().close();
    expect(owner.pageErrors).toEqual([]);
  });
});
