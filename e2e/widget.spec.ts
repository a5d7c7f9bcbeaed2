import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCalculator } from '../calculators/index.ts';
import type { RunningServers } from '../server/index.ts';
import { launchChromium, startStack } from './support/stack.ts';

let stack: RunningServers;
let browser: Browser;

beforeAll(async () => {
  stack = await startStack();
  browser = await launchChromium();
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

type Recorded = { type: string; payload: Record<string, unknown>; widgetId: string };
const events = (page: Page) =>
  page.evaluate(() => (window as unknown as { svcEvents: Recorded[] }).svcEvents);
const eventsOf = async (page: Page, type: string) => (await events(page)).filter((e) => e.type === type);

describe('widget on a host page of another origin', () => {
  it('loads, calculates on the server, reports the result and a lead to the host page', async () => {
    const page = await browser.newPage();
    const host = new URL(stack.examplesUrl);
    expect(host.origin).not.toBe(new URL(stack.embedUrl).origin);
    await page.goto(`${stack.examplesUrl}/events.html`);
    await expect.poll(async () => (await eventsOf(page, 'svc-ready')).length, { timeout: 20_000 }).toBe(1);

    const frame = page.frameLocator('iframe');
    await frame.locator('#f-estateValue').fill('16000000');
    await frame.locator('#f-state').selectOption('NY');
    const calculate = frame.getByRole('button', { name: 'Calculate' });
    await expect.poll(() => calculate.isEnabled(), { timeout: 20_000 }).toBe(true);
    await calculate.click();
    await expect.poll(async () => (await eventsOf(page, 'svc-result')).length, { timeout: 20_000 }).toBe(1);

    const [result] = await eventsOf(page, 'svc-result');
    const expected = runCalculator('estate-tax', { estateValue: 16_000_000, state: 'NY' });
    if (!expected.ok) throw new Error('calculator refused valid input');
    expect(result!.payload.outputs).toEqual(expected.result.outputs);
    expect(result!.payload.resultId).toMatch(/^res_/);
    expect(await frame.locator('[data-output="totalTax"]').textContent()).toContain(
      new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' }).format(
        expected.result.outputs.totalTax as number,
      ),
    );

    await frame.locator('#lead-name').fill('Zoë Ødegård');
    await frame.locator('#lead-email').fill('zoe@example.com');
    await frame.locator('#lead-state').fill('NY');
    await frame.locator('.consent input').check();
    await frame.getByRole('button', { name: 'Send' }).click();
    await expect.poll(async () => (await eventsOf(page, 'svc-lead')).length, { timeout: 20_000 }).toBe(1);
    const [lead] = await eventsOf(page, 'svc-lead');
    expect(lead!.payload).toMatchObject({ calculator: 'estate-tax', resultId: result!.payload.resultId });

    // The lead is stored for the firm: its admin API key reads it back.
    const leads = await (
      await fetch(`${stack.apiUrl}/v1/api/leads`, {
        headers: { authorization: `Bearer ${stack.demo.apiKey}` },
      })
    ).json();
    expect(leads.data.some((l: { leadId: string }) => l.leadId === lead!.payload.leadId)).toBe(true);
    expect((await eventsOf(page, 'svc-resize')).length).toBeGreaterThan(0);
    await page.close();
  });

  it('ignores messages forged by anything but its own iframe on the embed origin', async () => {
    const page = await browser.newPage();
    await page.goto(`${stack.examplesUrl}/events.html`);
    await expect.poll(async () => (await eventsOf(page, 'svc-ready')).length, { timeout: 20_000 }).toBe(1);
    const [ready] = await eventsOf(page, 'svc-ready');
    await page.evaluate((widgetId) => {
      const forged = {
        type: 'svc-lead',
        v: 1,
        widgetId,
        payload: { leadId: 'lead_forged', calculator: 'estate-tax' },
      };
      window.postMessage(forged, '*');
    }, ready!.widgetId);
    // A real event queued after the forged one: once it has arrived, the forged one was handled.
    const frame = page.frameLocator('iframe');
    await frame.locator('#f-estateValue').fill('1000000');
    await frame.locator('#f-state').selectOption('FL');
    const calculate = frame.getByRole('button', { name: 'Calculate' });
    await expect.poll(() => calculate.isEnabled(), { timeout: 20_000 }).toBe(true);
    await calculate.click();
    await expect.poll(async () => (await eventsOf(page, 'svc-result')).length, { timeout: 20_000 }).toBe(1);
    expect(await eventsOf(page, 'svc-lead')).toEqual([]);
    await page.close();
  });

  it('reports a refused license key as svc-error token_denied, without throwing into the page', async () => {
    const page = await browser.newPage();
    const pageErrors: Error[] = [];
    page.on('pageerror', (error) => pageErrors.push(error));
    await page.goto(`${stack.examplesUrl}/wrong-key.html`);
    await expect
      .poll(async () => (await eventsOf(page, 'svc-error')).length, { timeout: 20_000 })
      .toBeGreaterThan(0);
    const [error] = await eventsOf(page, 'svc-error');
    expect(error!.payload.reason).toBe('token_denied');
    expect(pageErrors).toEqual([]);
    await page.close();
  });
});
