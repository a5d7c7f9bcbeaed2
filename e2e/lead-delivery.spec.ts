import { mkdirSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Route } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { snippetOf } from '../portal/snippet.ts';
import type { RunningServers } from '../server/main/servers.ts';
import { startCrmStandIns } from '../server/test-support/crm-stand-ins.ts';
import { axeViolations, openCustomPage } from './support/custom-page.ts';
import { type HostPage, openHostPage } from './support/host-page.ts';
import { axeViolations as portalAxe, screenshot, signInWithLink } from './support/portal.ts';
import { LOCAL_NETWORK_ARGS, launchChromium, startStack } from './support/stack.ts';

/**
 * A firm's own site over plain HTTP: `demo.svc.test` (one of the demo license's domains) resolves
 * to loopback inside Chromium only, so the host page, and with it the widget's iframe, is not a
 * secure context, as on many small firms' sites. On `localhost` (a secure context) none of this shows.
 */
const SITE = 'demo.svc.test';
/** A firm's production site (not a development host): its leads are live and go to the CRMs. */
const LIVE_SITE = 'www.demo-estate-law.example';
const WAIT = { timeout: 30_000 };
const SHOTS = fileURLToPath(new URL('./screenshots/widget/', import.meta.url));
let stack: RunningServers;
let browser: Browser;
let crm: Awaited<ReturnType<typeof startCrmStandIns>>;
const dataDir = mkdtempSync(join(tmpdir(), 'svc-e2e-delivery-'));

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  // CRM stand-ins in this process; DESTINATION_BASE_URLS sends the vendors' calls to them.
  crm = await startCrmStandIns();
  [stack, browser] = await Promise.all([
    startStack({ DATA_DIR: dataDir, DESTINATION_BASE_URLS: crm.baseUrls, DELIVERY_POLL_MS: '200' }),
    launchChromium([
      `--host-resolver-rules=MAP ${SITE} 127.0.0.1, MAP ${LIVE_SITE} 127.0.0.1`,
      ...LOCAL_NETWORK_ARGS,
    ]),
  ]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await crm?.close();
});

async function openSite(width = 1280, site = SITE): Promise<HostPage> {
  const port = new URL(stack.examplesUrl).port;
  const host = await openHostPage(browser, `http://${site}:${port}/events.html`);
  // Tall enough that the whole iframe is painted for its screenshot.
  await host.page.setViewportSize({ width, height: 3200 });
  await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
  return host;
}

/** A result, then the contact form filled in with consent; returns the Send button. */
async function fillLead(host: HostPage, email: string) {
  const frame = host.widget();
  await frame.locator('#f-estateValue').fill('8,000,000');
  await frame.getByLabel('State of residence').selectOption('NY');
  await frame.getByRole('button', { name: 'Calculate' }).click();
  await expect.poll(() => host.count('svc-result'), WAIT).toBe(1);
  await frame.getByLabel('Your name').fill('Ada Plain');
  await frame.getByLabel('Email', { exact: true }).fill(email);
  await frame.locator('#lead-consent').check();
  return frame.getByRole('button', { name: 'Send my details' });
}

/** Lead POSTs (not their CORS preflights) seen by the context, and a switch to make them fail. */
async function interceptLeads(host: HostPage, failFirst: number) {
  const keys: string[] = [];
  const state = { failing: failFirst };
  await host.page.context().route(`${stack.apiUrl}/v1/api/leads`, async (route: Route) => {
    const request = route.request();
    if (request.method() !== 'POST') return route.continue();
    keys.push(request.headers()['idempotency-key'] ?? '');
    if (state.failing > 0) {
      state.failing--;
      return route.abort('connectionreset');
    }
    return route.continue();
  });
  return { keys, state };
}

async function storedLeads(email: string) {
  const res = await fetch(`${stack.apiUrl}/v1/api/leads?includeTest=true&limit=200`, {
    headers: { authorization: `Bearer ${stack.demo.apiKey}` },
  });
  const body = (await res.json()) as {
    data: { leadId: string; email: string; consent: { page: string | null } }[];
  };
  return body.data.filter((l) => l.email === email);
}

describe('leads from a host page over plain HTTP on a non-loopback host name', () => {
  it('is not a secure context there, and the lead is sent and stored (no stuck "Sending…")', async () => {
    const host = await openSite();
    expect(await host.page.evaluate(() => window.isSecureContext)).toBe(false);
    const send = await fillLead(host, 'plain@example.com');
    await send.click();
    await expect.poll(() => host.count('svc-lead'), WAIT).toBe(1);
    expect(await host.count('svc-error')).toBe(0);
    const [lead] = await storedLeads('plain@example.com');
    // Where consent was given: origin and path, as the page reported it.
    expect(lead?.consent.page).toBe(`http://${SITE}:${new URL(stack.examplesUrl).port}/events.html`);
    expect(host.pageErrors).toEqual([]);
    await host.close();
  });

  it('retries a failed send with the same Idempotency-Key and stores exactly one lead', async () => {
    const host = await openSite();
    const { keys } = await interceptLeads(host, 1);
    const send = await fillLead(host, 'retry-once@example.com');
    await send.click();
    await expect.poll(() => host.count('svc-lead'), WAIT).toBe(1);
    expect(keys.length).toBe(2);
    expect(keys[1]).toBe(keys[0]);
    expect(await storedLeads('retry-once@example.com')).toHaveLength(1);
    expect(await host.count('svc-error')).toBe(0);
    await host.close();
  });

  it.each([1280, 375])(
    'keeps what was typed when the network stays down, says so with a retry button, emits svc-error network (%i px)',
    async (width) => {
      const host = await openSite(width);
      const email = `down-${width}@example.com`;
      const { keys, state } = await interceptLeads(host, 1_000);
      const send = await fillLead(host, email);
      await send.click();
      const frame = host.widget();
      const retry = frame.getByRole('button', { name: 'Try again' });
      await expect.poll(() => retry.isVisible(), WAIT).toBe(true);
      expect(await frame.getByRole('alert').textContent()).toMatch(/could not be sent/i);
      expect((await host.events('svc-error')).map((e) => e.detail.reason)).toEqual(['network']);
      expect(await frame.getByLabel('Your name').inputValue()).toBe('Ada Plain');
      expect(await frame.getByLabel('Email', { exact: true }).inputValue()).toBe(email);
      expect(await frame.locator('#lead-consent').isChecked()).toBe(true);
      expect(await frame.getByRole('button', { name: 'Sending…' }).count()).toBe(0);
      const tried = keys.length;
      expect(tried).toBeGreaterThan(1);
      expect(new Set(keys).size).toBe(1);
      await host.page
        .locator('iframe')
        .first()
        .screenshot({ path: `${SHOTS}lead-network-error-${width}.png` });
      const widgetFrame = host.page.frames().find((f) => f.url().includes('/w/'));
      expect(await axeViolations(widgetFrame!)).toEqual([]);

      state.failing = 0;
      await retry.click();
      await expect.poll(() => host.count('svc-lead'), WAIT).toBe(1);
      expect(new Set(keys).size).toBe(1);
      expect(keys.length).toBeGreaterThan(tried);
      expect(await storedLeads(email)).toHaveLength(1);
      await host.close();
    },
  );
});

/** The first fenced block of `lang` after `heading` in a markdown file, exactly as printed there. */
function docBlock(file: 'README.md' | 'docs/embedding.md', heading: string, lang: string): string {
  const doc = readFileSync(fileURLToPath(new URL(`../${file}`, import.meta.url)), 'utf8');
  if (!doc.includes(heading)) throw new Error(`no heading ${heading} in ${file}`);
  const section = doc.slice(doc.indexOf(heading));
  const match = section.match(new RegExp(`\`\`\`${lang}\\n([\\s\\S]*?)\`\`\``));
  if (!match) throw new Error(`no ${lang} block under ${heading}`);
  return match[1]!;
}

/** The portal's "JavaScript listener" snippet as its page prints it (the template in its source). */
function portalListener(embedUrl: string): string {
  const source = readFileSync(fileURLToPath(new URL('../portal/pages/embed.tsx', import.meta.url)), 'utf8');
  const match = source.match(/function listenerOf\(embedUrl: string\) \{\n\s+return `([\s\S]*?)`;\n\}/);
  if (!match) throw new Error('no listenerOf template in portal/pages/embed.tsx');
  // The one interpolation in the template: the embed origin the raw-message listener checks.
  return match[1]!.replace(`$\{new URL(embedUrl).origin}`, new URL(embedUrl).origin);
}

describe('listener snippets as printed, with an async loader', () => {
  /** Runs `html` as a site's page; the printed embed URL and key become the test stack's. */
  async function runPage(html: string) {
    const key = (stack.demo as { publishableKey?: string }).publishableKey ?? stack.demo.licenseKey;
    const body = html.replaceAll('http://127.0.0.1:8788', stack.embedUrl).replaceAll('svc_pk_…', key);
    const host = await openCustomPage(browser, { origin: `http://${SITE}`, body });
    const logged: string[] = [];
    host.page.on('console', (m) => logged.push(m.text()));
    return { host, logged };
  }

  it('docs/embedding.md "Events": document.addEventListener hears svc-result', async () => {
    const html = docBlock('docs/embedding.md', '\n## Events\n', 'html');
    expect(html).toMatch(
      /loader\.js" [^>]*async><\/script>\n<script>\n\s+document\.addEventListener\('svc-result'/,
    );
    const { host, logged } = await runPage(html);
    await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
    const frame = await host.frame();
    await frame.locator('#f-estateValue').fill('8,000,000');
    await frame.getByLabel('State of residence').selectOption('NY');
    await frame.getByRole('button', { name: 'Calculate' }).click();
    await expect.poll(() => logged.find((l) => l.startsWith('estimate res_')), WAIT).toBeDefined();
    expect(host.pageErrors).toEqual([]);
    await host.close();
  });

  it('README "A first embed": the snippet mounts the widget and its listener hears svc-lead', async () => {
    const html = docBlock('README.md', '\n## A first embed\n', 'html');
    expect(html).toContain('data-key="svc_pk_…" async></script>');
    const { host, logged } = await runPage(html);
    await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
    const frame = await host.frame();
    await frame.locator('#f-estateValue').fill('8,000,000');
    await frame.getByLabel('State of residence').selectOption('NY');
    await frame.getByRole('button', { name: 'Calculate' }).click();
    await frame.getByLabel('Your name').fill('Ada Readme');
    await frame.getByLabel('Email', { exact: true }).fill('readme@example.com');
    await frame.locator('#lead-consent').check();
    await frame.getByRole('button', { name: 'Send my details' }).click();
    await expect.poll(() => logged.find((l) => l.startsWith('new lead lead_')), WAIT).toBeDefined();
    expect(host.pageErrors).toEqual([]);
    await host.close();
  });

  it('portal "JavaScript listener" after the portal snippet: the document listener hears svc-lead', async () => {
    const key = (stack.demo as { publishableKey?: string }).publishableKey ?? stack.demo.licenseKey;
    const html = `${snippetOf(stack.embedUrl, key, ['estate-tax'])}\n<script>\n${portalListener(stack.embedUrl)}\n</script>`;
    expect(html).toContain('async></script>');
    const { host, logged } = await runPage(html);
    await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
    const frame = await host.frame();
    await frame.locator('#f-estateValue').fill('8,000,000');
    await frame.getByLabel('State of residence').selectOption('NY');
    await frame.getByRole('button', { name: 'Calculate' }).click();
    await expect.poll(() => logged.find((l) => l.startsWith('result res_')), WAIT).toBeDefined();
    await frame.getByLabel('Your name').fill('Ada Snippet');
    await frame.getByLabel('Email', { exact: true }).fill('snippet@example.com');
    await frame.locator('#lead-consent').check();
    await frame.getByRole('button', { name: 'Send my details' }).click();
    await expect.poll(() => logged.find((l) => l.startsWith('new lead lead_')), WAIT).toBeDefined();
    expect(logged.find((l) => l.startsWith('new lead'))).toMatch(/from widget svc-1$/);
    expect(host.pageErrors).toEqual([]);
    await host.close();
  });
});

const adminCall = async (method: string, path: string, body?: unknown) => {
  const res = await fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return {
    status: res.status,
    body: (await res.json()) as { destination: { id: string; status: string } },
  };
};

describe('CRM destinations: a widget lead from a live site, straight into the firm’s CRMs', () => {
  it('reaches the Clio Grow and HubSpot stand-ins within 5 s, with first and last name, E.164 phone, the figures and the consent', async () => {
    const accountId = stack.demo.accountId!;
    const added = await adminCall('PATCH', `/admin/v1/licenses/${stack.demo.licenseId}`, {
      addDomains: [LIVE_SITE],
    });
    expect(added.status).toBe(200);
    for (const body of [
      { vendor: 'clio-grow', credential: 'clio-good-token', name: 'Intake inbox' },
      {
        vendor: 'hubspot',
        credential: 'pat-na1-good',
        name: 'Website enquiries form',
        settings: {
          portalId: '62515',
          formGuid: '78c2891f-ebdd-44c0-bd94-15c012bbbfbf',
          figureFields: { estateValue: 'estate_value' },
        },
      },
    ])
      expect((await adminCall('POST', '/admin/v1/destinations', { accountId, ...body })).status).toBe(200);
    const host = await openSite(1280, LIVE_SITE);
    const send = await fillLead(host, 'crm-lead@example.com');
    await host.widget().locator('input[type=tel]').fill('(212) 736-5000');
    const clicked = Date.now();
    await send.click();
    await expect
      .poll(() => crm.kept['clio-grow'].length + crm.kept.hubspot.length, { timeout: 5_000, interval: 50 })
      .toBe(2);
    expect(Date.now() - clicked).toBeLessThan(5_000);
    const [lead] = (await storedLeads('crm-lead@example.com')) as unknown as {
      test: boolean;
      consent: { text: string; page: string };
    }[];
    expect(lead?.test).toBe(false);
    const clio = crm.kept['clio-grow'][0] as Record<string, string>;
    expect(clio).toMatchObject({
      from_first: 'Ada',
      from_last: 'Plain',
      from_email: 'crm-lead@example.com',
      from_phone: '+12127365000',
      referring_url: lead!.consent.page,
    });
    expect(clio.from_message).toContain('$8,000,000');
    expect(clio.from_message).toContain(lead!.consent.text);
    const hub = crm.kept.hubspot[0] as {
      fields: { name: string; value: string }[];
      legalConsentOptions: { consent: { text: string } };
      context: { pageUri: string };
    };
    const fields = Object.fromEntries(hub.fields.map((f) => [f.name, f.value]));
    expect(fields).toMatchObject({
      firstname: 'Ada',
      lastname: 'Plain',
      phone: '+12127365000',
      estate_value: '8000000',
    });
    expect(hub.legalConsentOptions.consent.text).toBe(lead!.consent.text);
    expect(hub.context.pageUri).toBe(lead!.consent.page);
    await host.close();
  });

  it('a credential refused disables the destination and writes the owner’s mail', async () => {
    const accountId = stack.demo.accountId!;
    const created = await adminCall('POST', '/admin/v1/destinations', {
      accountId,
      vendor: 'wealthbox',
      credential: 'wb-revoked-token',
      name: 'Advisers’ Wealthbox',
    });
    const id = created.body.destination.id;
    expect((await adminCall('POST', `/admin/v1/destinations/${id}/test`)).status).toBe(200);
    await expect
      .poll(
        async () => (await adminCall('GET', `/admin/v1/destinations/${id}`)).body.destination.status,
        WAIT,
      )
      .toBe('disabled');
    const outbox = join(dataDir, 'outbox');
    const mails = () =>
      readdirSync(outbox)
        .map((f) => readFileSync(join(outbox, f), 'utf8'))
        .filter((m) => m.includes('credential was refused'));
    await expect.poll(() => mails().length, WAIT).toBe(1);
    expect(mails()[0]).toContain('demo@svc.test');
  });

  it('Settings → Destinations and its delivery log, looked at at 1440 and 390 px', async () => {
    const owner = await signInWithLink(browser, stack.demoSignInLink!, { width: 1440, height: 900 });
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal/settings/destinations`);
    await expect.poll(() => page.locator('section.card.endpoint').count(), WAIT).toBe(3);
    await expect.poll(() => page.locator('table tbody tr').count(), WAIT).toBeGreaterThan(2);
    expect(await page.getByRole('alert').first().textContent()).toContain('Leads are not reaching');
    expect(await portalAxe(page)).toEqual([]);
    await screenshot(page, 'destinations-desktop');
    await page
      .getByRole('button', { name: /^Inspect/ })
      .first()
      .click();
    await expect.poll(() => page.locator('dialog[open]').count(), WAIT).toBe(1);
    expect(await page.locator('dialog[open]').textContent()).not.toContain('clio-good-token');
    await screenshot(page, 'destinations-inspector-desktop');
    await page.keyboard.press('Escape');
    const phone = await browser.newContext({
      viewport: { width: 390, height: 844 },
      storageState: await owner.context.storageState(),
    });
    const small = await phone.newPage();
    await small.goto(`${stack.portalUrl}/portal/settings/destinations`);
    await expect.poll(() => small.locator('section.card.endpoint').count(), WAIT).toBe(3);
    expect(await portalAxe(small)).toEqual([]);
    await screenshot(small, 'destinations-phone');
    expect(owner.pageErrors).toEqual([]);
    await phone.close();
    await owner.context.close();
  });
});
