import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../server/main/servers.ts';
import { openHostPage } from './support/host-page.ts';
import { launchChromium, startStack } from './support/stack.ts';

const WAIT = { timeout: 20_000 };
let stack: RunningServers;
let browser: Browser;

beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack(), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('example pages', () => {
  it('mounts several widgets with one embed session for the page', async () => {
    const host = await openHostPage(browser, `${stack.examplesUrl}/several.html`);
    const frames = host.page.locator('iframe');
    await expect.poll(() => frames.count(), WAIT).toBe(3);
    for (let i = 0; i < 3; i++) await frames.nth(i).scrollIntoViewIfNeeded();
    await expect.poll(() => host.count('svc-ready'), WAIT).toBe(3);
    const ready = await host.events('svc-ready');
    expect(ready.map((e) => e.detail.calculator).sort()).toEqual(['estate-tax', 'probate-fees', 'rmd']);
    expect(new Set(ready.map((e) => e.widgetId)).size).toBe(3);
    for (let i = 0; i < 3; i++) {
      await expect
        .poll(() => host.widget(i).getByRole('button', { name: 'Calculate' }).isEnabled(), WAIT)
        .toBe(true);
    }
    expect(host.requestsTo('/license/activate')).toHaveLength(1);
    expect(await host.violations()).toEqual([]);
    await host.close();
  });

  it('lets a single-page app mount, unmount and mount again', async () => {
    const host = await openHostPage(browser, `${stack.examplesUrl}/spa.html`);
    expect(await host.page.locator('iframe').count()).toBe(0);
    await host.page.getByRole('button', { name: 'Show the RMD calculator' }).click();
    await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
    await host.page.getByRole('button', { name: 'Remove it' }).click();
    await expect.poll(() => host.page.locator('iframe').count(), WAIT).toBe(0);
    await host.page.getByRole('button', { name: 'Show the estate-tax calculator' }).click();
    await expect.poll(() => host.count('svc-ready'), WAIT).toBe(2);
    const [first, second] = await host.events('svc-ready');
    expect([first!.detail.calculator, second!.detail.calculator]).toEqual(['rmd', 'estate-tax']);
    expect(second!.widgetId).not.toBe(first!.widgetId);
    await expect
      .poll(() => host.widget().getByRole('button', { name: 'Calculate' }).isEnabled(), WAIT)
      .toBe(true);
    expect(host.pageErrors).toEqual([]);
    await host.close();
  });
});
