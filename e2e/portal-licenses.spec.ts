import { domainToASCII } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetOf } from '../portal/snippet.ts';
import type { RunningServers } from '../server/main/servers.ts';
import { startReceiver } from '../server/test-support/webhook-receiver.ts';
import { openCustomPage } from './support/custom-page.ts';
import {
  checkPortalPage,
  portalApiSession,
  signInWithLink,
  startPortalStack,
  WAIT,
} from './support/portal.ts';
import { LOCAL_NETWORK_ARGS, launchChromium } from './support/stack.ts';

let stack: RunningServers;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: Awaited<ReturnType<typeof signInWithLink>>;

const SITE = 'bücher-kanzlei.example';
const SITE_ASCII = domainToASCII(SITE);

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
const admin = async (path: string, body: unknown) => {
  const res = await post(`${stack.apiUrl}${path}`, body, { authorization: `Bearer ${stack.adminToken}` });
  return (await res.json()) as { link?: string; account?: { id: string } };
};
const invite = async (accountId: string, email: string, role: string) =>
  (await admin('/admin/v1/users/invite', { accountId, email, role })).link as string;
/** A plugin activating the secret license key for a site, as WordPress would. */
const activateSite = (siteDomain: string) =>
  post(`${stack.apiUrl}/v1/api/licenses/activate`, { licenseKey: stack.demo.licenseKey, siteDomain });
/** The loader opening an embed session with a publishable key from the portal's own (development) origin. */
const embedSession = (key: string) =>
  post(`${stack.apiUrl}/v1/api/license/activate`, { licenseKey: key }, { origin: stack.portalUrl });
const main = (page: Page) => page.locator('main');
const checkPage = (page: Page, name: string) => checkPortalPage(browser, owner.context, page, name);

beforeAll(async () => {
  [stack, browser, receiver] = await Promise.all([
    startPortalStack({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1', DELIVERY_POLL_MS: '200' }),
    launchChromium(LOCAL_NETWORK_ARGS),
    startReceiver(),
  ]);
  owner = await signInWithLink(browser, stack.demoSignInLink!);
  owner.page.on('dialog', (dialog) => dialog.accept());
});
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.close();
});

/**
 * The funnel end to end: a visitor on the demo firm's own site over plain HTTP (added to its
 * license's domains; the page is answered by the browser) opens two pages, calculates on both and
 * leaves a lead on one; the firm marks the lead converted; test traffic from a development host is
 * counted apart. The portal's funnel, REST's and MCP's then say the same, exactly, and Overview and
 * Licenses are looked at on a desktop and a phone. First in this file: later tests roll the keys.
 */
const FUNNEL_SITE = 'smith-estate-law.example';
const FUNNEL_ORIGIN = `http://${FUNNEL_SITE}`;
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
    // A production site of the firm (development hosts such as *.test give test traffic).
    const added = await fetch(`${stack.apiUrl}/admin/v1/licenses/${stack.demo.licenseId}`, {
      method: 'PATCH',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
      body: JSON.stringify({ addDomains: [FUNNEL_SITE] }),
    });
    expect(added.status).toBe(200);
    const before = (await (await api('/v1/api/funnel')).json()) as {
      test: { views: number; calculations: number; leads: number };
    };
    const host = await openCustomPage(browser, {
      origin: FUNNEL_ORIGIN,
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
    await host.page.goto(`${FUNNEL_ORIGIN}/contact?utm_source=mail#calc`);
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
      test: { views: number; calculations: number; leads: number };
    };
    const page = (p: string) => rest.byPage.find((row) => row.page === p);
    expect(page(`${FUNNEL_ORIGIN}/`)).toMatchObject({
      views: 1,
      calculations: 1,
      leads: 1,
      converted: 1,
      contacted: 1,
    });
    expect(page(`${FUNNEL_ORIGIN}/contact`)).toMatchObject({
      views: 1,
      calculations: 1,
      leads: 0,
      converted: 0,
    });
    // Test traffic apart (other tests' previews may have added some: compared with before).
    expect(rest.test).toEqual({
      views: before.test.views + 1,
      calculations: before.test.calculations + 1,
      leads: before.test.leads,
    });

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
    // Figures right-aligned under their headings (a desktop table, not the phone's stacked rows).
    const align = await owner.page
      .locator('.funnel-table td.num')
      .first()
      .evaluate((td) => getComputedStyle(td).textAlign);
    expect(align).toBe('right');
    await checkPortalPage(browser, owner.context, owner.page, 'overview-funnel');
    await owner.page.getByRole('link', { name: 'Licenses' }).click();
    const live = owner.page.locator('tr', { hasText: FUNNEL_SITE });
    await expect.poll(() => live.count(), WAIT).toBeGreaterThan(0);
    // The status line writes its days as the facts beside it do (Nov 28, 2027), not 2027-11-28.
    const status = (await main(owner.page).locator('.status-line').first().textContent()) ?? '';
    expect(status).toMatch(/[A-Z][a-z]{2} \d{1,2}, \d{4}/);
    expect(status).not.toMatch(/\d{4}-\d{2}-\d{2}/);
    await checkPortalPage(browser, owner.context, owner.page, 'licenses-embeds');
  });
});

describe('Licenses page (demo firm owner)', () => {
  it('adds a domain (Unicode and punycode) and activation follows; releases the seat; removes it and activation is refused', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Licenses' }).click();
    await page.getByLabel('Add a domain').fill(`https://WWW.${SITE}:8443/kontakt`);
    await page.getByRole('button', { name: 'Add domain' }).click();
    await expect.poll(() => page.locator('.domain-chips').textContent(), WAIT).toContain(SITE);
    expect(await page.locator('.domain-chips').textContent()).toContain(SITE_ASCII);
    expect(await page.locator('.success-note').textContent()).toContain(`${SITE} (${SITE_ASCII})`);

    const activated = await activateSite(SITE);
    expect(activated.status).toBe(200);
    const tokens = (await activated.json()) as { accessJwt: string; refreshToken: string };
    const status = () =>
      fetch(`${stack.apiUrl}/v1/api/licenses/status`, {
        headers: { authorization: `Bearer ${tokens.accessJwt}` },
      });
    expect((await status()).status).toBe(200);

    await page.reload();
    const row = page.locator('tr', { hasText: SITE_ASCII });
    await expect.poll(() => row.count(), WAIT).toBe(1);
    expect(await row.textContent()).toContain('just now');
    expect(await main(page).textContent()).toContain('1 of 3 seats used');
    await row.getByRole('button', { name: /Release seat/ }).click();
    await expect.poll(() => row.count(), WAIT).toBe(0);
    expect(await main(page).textContent()).toContain('0 of 3 seats used');
    expect((await status()).status).toBe(401);
    const refresh = await post(`${stack.apiUrl}/v1/api/licenses/refresh`, {
      refreshToken: tokens.refreshToken,
    });
    expect(refresh.status).toBe(400);

    await page.getByRole('button', { name: `Remove ${SITE} (${SITE_ASCII})` }).click();
    await expect.poll(() => page.locator('.domain-chips').textContent(), WAIT).not.toContain(SITE_ASCII);
    const refused = await activateSite(SITE);
    expect(refused.status).toBe(403);
    expect(((await refused.json()) as { error: { code: string } }).error.code).toBe('DOMAIN_NOT_ALLOWED');
  });

  it('rolls the publishable key with an overlap, then with "now" after a confirmation', async () => {
    const { page } = owner;
    const oldKey = stack.demo.publishableKey;
    expect(await page.getByTestId(/^publishable-/).textContent()).toBe(oldKey);
    await page.getByRole('button', { name: 'Roll publishable key' }).click();
    await page.getByLabel('Keep the old key working for').selectOption({ label: '1 hour' });
    await page.getByRole('button', { name: 'Issue new publishable key' }).click();
    const rolled = (await page.getByTestId('rolled-key').textContent())!;
    expect(rolled).toMatch(/^svc_pk_/);
    expect(rolled).not.toBe(oldKey);
    await expect.poll(() => page.getByTestId(/^publishable-/).textContent(), WAIT).toBe(rolled);
    expect(await main(page).locator('pre').first().textContent()).toContain(`data-key="${rolled}"`);
    expect(await main(page).textContent()).toContain(
      `Previous publishable key …${oldKey.slice(-4)} works until`,
    );
    expect((await embedSession(rolled)).status).toBe(200);
    expect((await embedSession(oldKey)).status).toBe(200);
    await checkPage(page, 'licenses');

    await page.getByRole('button', { name: 'Done' }).click();
    await page.getByRole('button', { name: 'Roll publishable key' }).click();
    await page
      .getByLabel('Keep the old key working for')
      .selectOption({ label: 'No overlap: stop the old key now' });
    const confirmed = page.waitForEvent('dialog');
    await page.getByRole('button', { name: 'Issue new publishable key' }).click();
    expect((await confirmed).message()).toContain('Stop the current publishable key now?');
    await expect.poll(() => page.getByTestId('rolled-key').textContent(), WAIT).not.toBe(rolled);
    expect(await main(page).textContent()).toContain('The old one has stopped.');
    expect((await embedSession(rolled)).status).toBe(401);
    // The key from the first roll kept its own overlap; only the current one was cut.
    expect(await main(page).textContent()).not.toContain(`…${rolled.slice(-4)} works until`);
  });
});

describe('Settings → Firm and Webhooks (demo firm owner)', () => {
  it('saves firm settings: the name shows on the overview, widgets get the accent, consent gets a version', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Licenses' }).click();
    const key = (await page.getByTestId(/^publishable-/).textContent())!;
    await page.getByRole('link', { name: 'Firm', exact: true }).click();
    // With no accent chosen, the colour shown and previewed is the one widgets and PDFs draw.
    expect(await page.getByLabel('Accent as hex').inputValue()).toBe('#1f4e79');
    // Each section saves on its own.
    await page.getByLabel('Display name').fill('Ødegård & Demo Estate Law');
    await page.getByLabel('Accent as hex').fill('#1a6b4f');
    await expect.poll(() => page.locator('.contrast-list').textContent(), WAIT).toContain('reads well');
    await page.getByRole('button', { name: 'Save name and brand' }).click();
    await expect.poll(() => page.locator('#firm-brand .success-note').textContent(), WAIT).toContain('Saved');
    await page.getByLabel('Phone').fill('+1 (212) 555-0143');
    await page.getByLabel('E-mail').fill('Office@Demo.svc.test');
    await page.getByLabel('Web site').fill('demo.svc.test');
    await page.getByLabel('Call to action').fill('Call us to discuss your estate plan');
    await page.getByLabel('Office address').fill('100 Main Street\nNew York, NY 10001');
    await page.getByLabel('Time zone').selectOption('America/New_York');
    await page.getByRole('button', { name: 'Save contact' }).click();
    await expect
      .poll(() => page.locator('#firm-contact .success-note').textContent(), WAIT)
      .toContain('Saved');
    // Saved as normalised: the e-mail in lower case, the web site with its scheme.
    await expect.poll(() => page.getByLabel('Web site').inputValue(), WAIT).toBe('https://demo.svc.test');
    expect(await page.getByLabel('E-mail').inputValue()).toBe('office@demo.svc.test');
    await page.getByLabel('Lead-alert addresses').fill('office@demo.svc.test\nPartner@demo.svc.test');
    await page.getByRole('button', { name: 'Save alerts' }).click();
    await expect.poll(() => page.locator('#firm-alerts-section .success-note').count(), WAIT).toBe(1);
    // Any embed session opened earlier wrote the default texts as versions: count English from here.
    // (A rename also writes the Spanish default with the new name, while the firm is on the default.)
    const english = page.locator('.version-row', { hasText: 'English' });
    const versions = await english.count();
    await page
      .getByLabel('Consent text', { exact: true })
      .fill('I agree that Ødegård & Demo Estate Law may contact me about my enquiry.');
    await page.getByRole('button', { name: 'Save consent' }).click();
    await expect.poll(() => page.locator('#firm-consent-section .success-note').count(), WAIT).toBe(1);
    const preview = await page
      .getByTestId('accent-preview')
      .locator('.accent-preview-button')
      .evaluate((e) => getComputedStyle(e).backgroundColor);
    expect(preview).toBe('rgb(26, 107, 79)');
    await expect.poll(() => english.count(), WAIT).toBe(versions + 1);
    // New words make a new version; the earlier one stays listed (its leads point at it).
    await page
      .getByLabel('Consent text', { exact: true })
      .fill('Ødegård & Demo Estate Law may contact me about my enquiry by e-mail.');
    await page.getByRole('button', { name: 'Save consent' }).click();
    await expect.poll(() => english.count(), WAIT).toBe(versions + 2);
    expect(await english.first().textContent()).toMatch(
      /Version \d+\s*English\s*in force.*Ødegård & Demo Estate Law may contact me about my enquiry by e-mail\./,
    );
    expect(await page.locator('.brand-firm').textContent()).toBe('Ødegård & Demo Estate Law');
    // The contact section kept what it saved while the others were saved.
    expect(await page.getByLabel('Phone').inputValue()).toBe('+1 (212) 555-0143');
    await checkPage(page, 'settings-firm');

    const session = (await (await embedSession(key)).json()) as {
      firm: { name: string; accent?: string };
    };
    expect(session.firm).toEqual({
      name: 'Ødegård & Demo Estate Law',
      accent: '#1a6b4f',
      phone: '+1 (212) 555-0143',
      email: 'office@demo.svc.test',
    });
    await page.getByRole('link', { name: 'Overview' }).click();
    await expect
      .poll(() => page.locator('.lead').first().textContent(), WAIT)
      .toBe('Ødegård & Demo Estate Law');
  });

  it('adds an endpoint on a loopback receiver, sends a signed test event, replays it, edits its events', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await page.getByLabel('Endpoint URL').fill(receiver.url);
    await page.getByLabel('Description (optional)').fill('Office CRM');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secret = (await page.getByTestId('webhook-secret').textContent())!;
    expect(secret).toMatch(/^whsec_/);
    await page.getByRole('button', { name: 'I have stored the secret' }).click();
    const card = page.getByRole('region', { name: `Endpoint ${receiver.url}` });
    await card.getByRole('button', { name: 'Send test event' }).click();
    await expect.poll(() => receiver.requests.length, WAIT).toBe(1);
    const received = receiver.requests[0]!;
    const body = new Webhook(secret).verify(received.body, received.headers as Record<string, string>) as {
      type: string;
      data: { test: boolean };
    };
    expect(body).toMatchObject({ type: 'lead.created', data: { test: true } });
    await expect.poll(() => card.locator('tbody').textContent(), WAIT).toContain('succeeded');
    expect(await card.locator('tbody tr').first().textContent()).toContain('204');

    await card.getByRole('button', { name: /Replay/ }).click();
    await expect.poll(() => receiver.requests.length, WAIT).toBe(2);
    expect(receiver.requests[1]!.headers['webhook-id']).toBe(received.headers['webhook-id']);
    await expect.poll(() => card.locator('tbody tr').count(), WAIT).toBe(2);

    await card.getByRole('button', { name: 'Edit events' }).click();
    await card.getByLabel(/lead\.updated/).check();
    await card.getByRole('button', { name: 'Save events' }).click();
    await expect.poll(() => card.locator('.chips-inline').textContent(), WAIT).toContain('lead.updated');
    await expect.poll(() => card.locator('tbody tr').count(), WAIT).toBe(2);
    await checkPage(page, 'settings-webhooks');
  });

  it('the Activity page lists these changes by the signed-in user', async () => {
    const { page } = owner;
    const call = await portalApiSession(
      stack.portalUrl,
      await invite(stack.demoAccountId!, 'demo@svc.test', 'owner'),
    );
    const events = (
      (await (await call('GET', 'activity?limit=100')).json()) as {
        data: { action: string; actor: string }[];
      }
    ).data;
    const mine = events.filter((e) => e.actor === 'user:demo@svc.test').map((e) => e.action);
    for (const action of [
      'license.updated',
      'activation.released',
      'license.key_rolled',
      'account.updated',
      'webhook.created',
      'webhook.tested',
      'webhook.replayed',
      'webhook.updated',
    ])
      expect(mine, action).toContain(action);
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect.poll(() => page.locator('.timeline-row').count(), WAIT).toBeGreaterThan(8);
    // Every action has words (the label table covers the union); none shows as its raw name.
    const timeline = (await page.locator('.timeline').textContent())!;
    expect(timeline).toContain('Sent a test event to a webhook endpoint');
    expect(timeline).toContain('Replayed a webhook delivery');
    expect(timeline).toMatch(/Changed a webhook endpoint: events [^;]*lead\.updated/);
    expect(timeline).not.toMatch(/Webhook (tested|updated)/);
    expect(owner.pageErrors).toEqual([]);
  });
});

describe('roles and tenancy on the new pages', () => {
  it('a viewer sees no controls to change licenses, firm settings or webhooks, and the server answers 403', async () => {
    const link = await invite(stack.demoAccountId!, 'viewer@demo.svc.test', 'viewer');
    const viewer = await signInWithLink(browser, link);
    const { page } = viewer;
    await page.getByRole('link', { name: 'Licenses' }).click();
    await expect
      .poll(() => page.locator('.notice').first().textContent(), WAIT)
      .toContain('Viewers can see licenses');
    for (const name of [
      'Add domain',
      'Roll publishable key',
      'Roll secret license key',
      'Open billing portal',
    ])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    expect(await page.locator('.chip-remove').count()).toBe(0);
    await page.getByRole('link', { name: 'Firm', exact: true }).click();
    await expect.poll(() => page.getByLabel('Display name').isDisabled(), WAIT).toBe(true);
    expect(await page.getByRole('button', { name: /^Save / }).count()).toBe(0);
    await page.getByRole('link', { name: 'Webhooks' }).click();
    await expect.poll(() => page.locator('.endpoint').count(), WAIT).toBe(1);
    for (const name of ['Add endpoint', 'Send test event', 'Roll secret', 'Delete'])
      expect(await page.getByRole('button', { name }).count(), name).toBe(0);
    await viewer.context.close();

    const call = await portalApiSession(
      stack.portalUrl,
      await invite(stack.demoAccountId!, 'viewer@demo.svc.test', 'viewer'),
    );
    const licenseId = stack.demo.licenseId!;
    const endpoint = ((await (await call('GET', 'webhooks')).json()) as { data: { id: string }[] }).data[0]!
      .id;
    for (const [method, path, body] of [
      ['POST', `licenses/${licenseId}/domains`, { addDomains: ['viewer.example'] }],
      ['POST', `licenses/${licenseId}/roll-key`, { kind: 'publishable' }],
      ['POST', 'billing/portal', undefined],
      ['PATCH', 'settings/firm', { name: 'Viewer was here' }],
      ['POST', 'webhooks', { url: receiver.url, events: ['lead.created'] }],
      ['POST', `webhooks/${endpoint}/test`, undefined],
      ['DELETE', `webhooks/${endpoint}`, undefined],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(403);
    }
  });

  it("another firm's license, activation, endpoint and delivery ids answer 404", async () => {
    const other = (await admin('/admin/v1/accounts', { name: 'Other Firm LLC' })).account!.id;
    const them = await portalApiSession(
      stack.portalUrl,
      await invite(other, 'owner@other-firm.example', 'owner'),
    );
    const me = await portalApiSession(
      stack.portalUrl,
      await invite(stack.demoAccountId!, 'demo@svc.test', 'owner'),
    );
    expect((await activateSite('demo.svc.test')).status).toBe(200);
    const license = (
      (await (await me('GET', `licenses/${stack.demo.licenseId}`)).json()) as {
        license: { activations: { id: string }[] };
      }
    ).license;
    const endpoint = ((await (await me('GET', 'webhooks')).json()) as { data: { id: string }[] }).data[0]!.id;
    const delivery = (
      (await (await me('GET', `webhooks/${endpoint}/deliveries`)).json()) as {
        data: { id: string }[];
      }
    ).data[0]!.id;
    for (const [method, path, body] of [
      ['POST', `licenses/${stack.demo.licenseId}/domains`, { removeDomains: ['demo.svc.test'] }],
      ['POST', `licenses/${stack.demo.licenseId}/roll-key`, { kind: 'secret', overlapSeconds: 0 }],
      ['POST', `activations/${license.activations[0]!.id}/release`, undefined],
      ['PATCH', `webhooks/${endpoint}`, { enabled: false }],
      ['GET', `webhooks/${endpoint}/deliveries`, undefined],
      ['POST', `webhooks/${endpoint}/roll-secret`, {}],
      ['POST', `webhook-deliveries/${delivery}/replay`, undefined],
      ['DELETE', `webhooks/${endpoint}`, undefined],
    ] as const) {
      const res = await them(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    expect((await activateSite('demo.svc.test')).status).toBe(200);
  });
});
