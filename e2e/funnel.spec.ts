import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetOf } from '../portal/snippet.ts';
import type { RunningServers } from '../server/main/servers.ts';
import { openCustomPage } from './support/custom-page.ts';
import { checkPortalPage, signInWithLink, startPortalStack } from './support/portal.ts';
import { LOCAL_NETWORK_ARGS, launchChromium } from './support/stack.ts';

/**
 * The funnel end to end: a visitor on the demo firm's own site over plain HTTP (added to its
 * license's domains; the page is answered by the browser) opens two pages, calculates on both and leaves a lead on
 * one; the firm marks the lead converted; test traffic from a development host is counted apart.
 * The portal's funnel, REST's and MCP's then say the same, exactly, and Overview and Licenses are
 * looked at on a desktop and a phone.
 */
const SITE = 'smith-estate-law.example';
const ORIGIN = `http://${SITE}`;
const WAIT = { timeout: 30_000 };
let stack: RunningServers;
let browser: Browser;
let owner: Awaited<ReturnType<typeof signInWithLink>>;

beforeAll(async () => {
  [stack, browser] = await Promise.all([
    startPortalStack(),
    launchChromium([`--host-resolver-rules=MAP ${SITE} 127.0.0.1`, ...LOCAL_NETWORK_ARGS]),
  ]);
  owner = await signInWithLink(browser, stack.demoSignInLink!);
  // A production site of the firm (development hosts such as *.test give test traffic).
  const added = await fetch(`${stack.apiUrl}/admin/v1/licenses/${stack.demo.licenseId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify({ addDomains: [SITE] }),
  });
  expect(added.status).toBe(200);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

const key = () => stack.demo.publishableKey;
const api = (path: string, init: RequestInit = {}) =>
  fetch(`${stack.apiUrl}${path}`, {
    ...init,
    headers: {
      authorization: `Bearer ${stack.demo.apiKey}`,
      'content-type': 'application/json',
      ...init.headers,
    },
  });

describe('the funnel, from a view to a client', () => {
  it('counts a visitor’s views, calculations and lead per page, test traffic apart, the same in portal, REST and MCP', async () => {
    const host = await openCustomPage(browser, {
      origin: ORIGIN,
      body: snippetOf(stack.embedUrl, key(), ['estate-tax']),
    });
    await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
    let frame = await host.frame();
    await frame.locator('#f-estateValue').fill('8,000,000');
    await frame.getByLabel('State of residence').selectOption('NY');
    await frame.getByRole('button', { name: 'Calculate' }).click();
    await expect.poll(() => host.count('svc-result'), WAIT).toBe(1);
    await frame.getByLabel('Your name').fill('Ada Funnel');
    await frame.getByLabel('Email', { exact: true }).fill('ada.funnel@example.com');
    await frame.locator('#lead-consent').check();
    await frame.getByRole('button', { name: 'Send my details' }).click();
    await expect.poll(() => host.count('svc-lead'), WAIT).toBe(1);
    const detail = (await host.events('svc-lead'))[0]!.detail as {
      leadId?: string;
      payload?: { leadId?: string };
    };
    const leadId = detail.leadId ?? detail.payload?.leadId;
    expect(leadId).toMatch(/^lead_/);

    // A second page of the same site: one more view and a calculation, no lead.
    await host.page.goto(`${ORIGIN}/contact?utm_source=mail#calc`);
    await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
    frame = await host.frame();
    await frame.locator('#f-estateValue').fill('3,000,000');
    await frame.getByLabel('State of residence').selectOption('NY');
    await frame.getByRole('button', { name: 'Calculate' }).click();
    await expect.poll(() => host.count('svc-result'), WAIT).toBe(1);
    await host.close();

    // Test traffic: an embed session from a development host (the widget's own calls, by hand).
    const session = await fetch(`${stack.apiUrl}/v1/api/license/activate`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: 'http://localhost:3000' },
      body: JSON.stringify({ licenseKey: key() }),
    });
    const { token } = (await session.json()) as { token: string };
    const dev = { authorization: `Bearer ${token}` };
    expect(
      (await api('/v1/api/views', { method: 'POST', headers: dev, body: '{"calculator":"rmd"}' })).status,
    ).toBe(204);
    const devCalc = await api('/v1/api/calc/estimate', {
      method: 'POST',
      headers: dev,
      body: JSON.stringify({ calculator: 'rmd', inputs: { balance: 500_000, age: 75 } }),
    });
    expect(devCalc.status).toBe(200);

    // The firm wins the client.
    const won = await api(`/v1/api/leads/${leadId}`, { method: 'PATCH', body: '{"status":"converted"}' });
    expect(won.status).toBe(200);

    const rest = (await (await api('/v1/api/funnel')).json()) as {
      byPage: { page: string }[];
      test: unknown;
    };
    const page = (p: string) => rest.byPage.find((row) => row.page === p);
    expect(page(`${ORIGIN}/`)).toMatchObject({
      views: 1,
      calculations: 1,
      leads: 1,
      converted: 1,
      contacted: 1,
    });
    expect(page(`${ORIGIN}/contact`)).toMatchObject({ views: 1, calculations: 1, leads: 0, converted: 0 });
    expect(rest.test).toEqual({ views: 1, calculations: 1, leads: 0 });

    const mcp = await api('/v1/mcp', {
      method: 'POST',
      headers: { accept: 'application/json, text/event-stream' },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'get_directory_stats', arguments: { windowDays: 30 } },
      }),
    });
    const text = await mcp.text();
    const body = JSON.parse(text.startsWith('{') ? text : (text.match(/^data: (.*)$/m)?.[1] ?? '{}'));
    expect(body.result.structuredContent.funnel).toEqual(rest);

    const portal = await owner.page.evaluate(async () => (await fetch('/v1/portal/funnel')).json());
    expect(portal.current).toEqual(rest);

    // Looked at: Overview's funnel and the Licenses page's live sites.
    await owner.page.getByRole('link', { name: 'Overview' }).click();
    await owner.page.reload();
    await expect.poll(() => owner.page.locator('#funnel .funnel-step').count(), WAIT).toBe(5);
    await checkPortalPage(browser, owner.context, owner.page, 'overview-funnel');
    await owner.page.getByRole('link', { name: 'Licenses' }).click();
    const live = owner.page.locator('tr', { hasText: SITE });
    await expect.poll(() => live.count(), WAIT).toBeGreaterThan(0);
    await checkPortalPage(browser, owner.context, owner.page, 'licenses-embeds');
  });
});
