import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../server/main/servers.ts';
import {
  axeViolations,
  checkPortalPage,
  portalApiSession,
  signInWithLink,
  startPortalStack,
  submitWidgetLead,
  WAIT,
} from './support/portal.ts';
import { launchChromium } from './support/stack.ts';

let stack: RunningServers;
let browser: Browser;
let owner: Awaited<ReturnType<typeof signInWithLink>>;

const admin = (path: string, body: unknown) =>
  fetch(`${stack.apiUrl}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify(body),
  }).then(async (r) => ({ status: r.status, body: (await r.json()) as Record<string, any> }));

const invite = async (accountId: string, email: string, role: string) =>
  (await admin('/admin/v1/users/invite', { accountId, email, role })).body.link as string;

const apiSession = (link: string) => portalApiSession(stack.portalUrl, link);

/**
 * Shows the Embed code page's live preview and waits for the calculator in it: the event log has
 * `svc-ready`, the widget's frame has the calculator's real height with its first question laid out
 * inside, and the preview frame holds it whole (no inner scroll bar, no fixed box).
 */
async function showPreview(page: Page) {
  await page.getByRole('button', { name: 'Show preview' }).click();
  await expect
    .poll(() => page.getByRole('table', { name: 'Events from the preview' }).textContent(), {
      timeout: 30_000,
    })
    .toContain('svc-ready');
  const widget = page.frameLocator('.preview-frame').frameLocator('iframe');
  await expect.poll(() => widget.getByLabel('What is the estate worth?').isVisible(), WAIT).toBe(true);
  expect(await widget.getByRole('heading', { name: 'Estate tax calculator' }).isVisible()).toBe(true);
  const heights = async () => {
    const outer = (await page.locator('.preview-frame').boundingBox())?.height ?? 0;
    const inner = (await page.frameLocator('.preview-frame').locator('iframe').boundingBox())?.height ?? 0;
    return { inner: inner > 500, holds: outer >= inner + 16 };
  };
  await expect.poll(heights, WAIT).toEqual({ inner: true, holds: true });
}

const checkPage = (page: Page, name: string, phone = true) =>
  checkPortalPage(browser, owner.context, page, name, phone);

beforeAll(async () => {
  [stack, browser] = await Promise.all([startPortalStack(), launchChromium()]);
  // A visitor whose name is a spreadsheet formula (the CSV export keeps it as text).
  await submitWidgetLead(stack, 'formula-firm.example', 'e2e-formula-0001', {
    calculator: 'estate-tax',
    name: '=HYPERLINK("http://evil.example","Click")',
    email: 'formula@example.com',
    state: 'NY',
  });
  owner = await signInWithLink(browser, stack.demoSignInLink!);
  owner.page.on('dialog', (dialog) => dialog.accept());
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('portal pages (demo firm owner)', () => {
  it('overview: license status in words, seats, leads this month, latest leads', async () => {
    const { page } = owner;
    await expect.poll(() => page.locator('.stat-value').textContent(), WAIT).toBe('4');
    const text = await page.locator('main').textContent();
    expect(text).toContain('Active — paid through');
    expect(text).toContain('0 of 3 seats used');
    expect(text).toContain('Zoë Ødegård');
    await checkPage(page, 'overview');
  });

  it('rules and sources: every rule set with its dates, figures, sources, dates checked and status', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Rules and sources' }).click();
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toBe('Rules and sources');
    await expect.poll(() => page.locator('.rule-set').count(), WAIT).toBeGreaterThan(15);
    const washington = page.locator('#rules-WA');
    const text = await washington.textContent();
    expect(text).toContain('Deaths from 1 January to 30 June 2026');
    expect(text).toContain('Deaths from 1 July to 31 December 2026');
    expect(text).toContain('Deaths on or after 1 January 2027');
    expect(text).toContain('$3,000,000');
    expect(text).toContain('10 % to 20 %, 8 brackets');
    expect(text).toContain('Secondary sources only');
    expect(text).toContain('checked Nov 24, 2026');
    expect(await page.locator('#rules-NY').textContent()).toContain('Deaths in 2027');
    expect(await page.locator('#rules-HI').textContent()).toContain('$5,490,000');
    // What changed, newest first, and the figures still not published (the next pack's checklist).
    const changes = page.locator('#what-changed .rule-change');
    expect(await changes.first().textContent()).toContain('Washington exclusion, deaths in 2027');
    expect(await page.locator('#not-published').textContent()).toContain('Basic exclusion amount for 2027');
    // The demo firm has a Washington estate-tax lead: it was told of Washington's 2027 change.
    const banner = page.locator('.rules-banner');
    await expect.poll(() => banner.textContent(), WAIT).toContain('stays at $3,000,000 for deaths in 2027');
    await checkPage(page, 'rules-and-sources');
  });

  it('licenses, embed code with a live preview and the other pages are clean and legible', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Licenses' }).click();
    await expect.poll(() => page.locator('main').textContent(), WAIT).toContain('Allowed domains');
    expect(await page.locator('main').textContent()).toContain('demo.svc.test');
    // The licenses screenshots come from portal-licenses.spec.ts (keys rolled, domains changed).
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Embed code' }).click();
    // The license's publishable key fills the snippet; the secret key never appears in a page.
    await expect
      .poll(() => page.locator('#snippet pre').first().textContent(), WAIT)
      .toContain(`data-key="${stack.demo.publishableKey}"`);
    expect(await page.locator('main').textContent()).not.toContain(stack.demo.licenseKey);
    // Each option writes its attribute on loader.js as it is chosen; the allowed domains are listed.
    await page.getByLabel('Theme').selectOption('dark');
    await page.getByLabel('Accent').fill('#7a1f3d');
    await page.getByLabel('Corner radius (px)').fill('4');
    await page.getByLabel('Font').fill('Georgia, serif');
    await page.getByLabel('Pre-selected state').selectOption('NY');
    await expect
      .poll(() => page.locator('#snippet pre').first().textContent(), WAIT)
      .toContain(
        `data-key="${stack.demo.publishableKey}" data-theme="dark" data-accent="#7a1f3d" data-radius="4" data-font="Georgia, serif" data-state="NY" async></script>`,
      );
    expect(await page.locator('#snippet pre').first().textContent()).toMatch(
      /<div data-svc-calculator="estate-tax" style="min-height:\d+px">/,
    );
    expect(await page.locator('#snippet').textContent()).toContain('demo.svc.test');
    // A strict-CSP site gets the same room as stylesheet rules.
    await page.getByText('Your site has a strict Content-Security-Policy?').click();
    expect(await page.locator('#snippet details pre').textContent()).toMatch(
      /^\[data-svc-calculator="estate-tax"\] \{ min-height: \d+px; \}$/,
    );
    expect(await page.locator('#events').textContent()).toContain("gtag('event', 'generate_lead'");
    expect(await page.locator('#events').textContent()).toContain("event: 'svc_lead'");
    await showPreview(page);
    // The options reach the widget: New York is already chosen.
    const widget = page.frameLocator('.preview-frame').frameLocator('iframe');
    expect(await widget.getByLabel('State of residence').inputValue()).toBe('NY');
    await checkPortalPage(browser, owner.context, page, 'embed', true, showPreview);
    // A Spanish snippet keeps a Spanish widget's room, as the loader does: the English room × 1.1.
    await page.getByLabel('Language').selectOption('es');
    await expect
      .poll(() => page.locator('#snippet pre').first().textContent(), WAIT)
      .toContain('data-state="NY" data-lang="es" async></script>');
    expect(await page.locator('#snippet pre').first().textContent()).toContain(
      '<div data-svc-calculator="estate-tax" style="min-height:926px">',
    );
    expect(await page.locator('#snippet details pre').textContent()).toBe(
      '[data-svc-calculator="estate-tax"] { min-height: 926px; }',
    );

    for (const [link, name] of [
      ['Members', 'members'],
      ['Sign-in & security', 'security'],
      // Issue 43: the key form offers leads:export beside leads:write.
      ['API keys', 'api-keys'],
    ] as const) {
      await page.getByRole('link', { name: link }).click();
      await expect.poll(() => page.locator('.loading').count(), WAIT).toBe(0);
      await checkPage(page, name);
    }
    expect(owner.pageErrors).toEqual([]);
  });
});

describe('roles and tenancy', () => {
  it('a viewer sees but cannot create keys, change leads or approve Connect', async () => {
    const link = await invite(stack.demoAccountId!, 'viewer@demo.svc.test', 'viewer');
    const viewer = await signInWithLink(browser, link);
    await viewer.page.getByRole('link', { name: 'API keys' }).click();
    await expect
      .poll(() => viewer.page.locator('.notice').textContent(), WAIT)
      .toContain('Viewers can see keys');
    expect(await viewer.page.getByRole('button', { name: 'Create key' }).count()).toBe(0);
    await viewer.page.getByRole('link', { name: 'Leads' }).click();
    await expect.poll(() => viewer.page.locator('tbody tr').count(), WAIT).toBeGreaterThan(0);
    expect(await viewer.page.locator('tbody select').count()).toBe(0);
    await viewer.context.close();

    const call = await apiSession(await invite(stack.demoAccountId!, 'viewer@demo.svc.test', 'viewer'));
    const created = await call('POST', 'api-keys', { name: 'x', scopes: ['admin'] });
    expect(created.status).toBe(403);
    expect(((await created.json()) as { error: { code: string } }).error.code).toBe('FORBIDDEN');
    const leads = (await (await call('GET', 'leads')).json()) as { data: { leadId: string }[] };
    expect((await call('PATCH', `leads/${leads.data[0]!.leadId}`, { status: 'converted' })).status).toBe(403);
    expect((await call('POST', 'members', { email: 'x@example.com', role: 'admin' })).status).toBe(403);
  });

  it("another firm's ids are 404 and its data never shows", async () => {
    const account = await admin('/admin/v1/accounts', { name: 'Other Firm LLC' });
    const otherId = account.body.account.id as string;
    const call = await apiSession(await invite(otherId, 'owner@other.example', 'owner'));
    const mine = await apiSession(await invite(stack.demoAccountId!, 'demo@svc.test', 'owner'));
    const demoLicense = ((await (await mine('GET', 'licenses')).json()) as { data: { id: string }[] })
      .data[0]!.id;
    const demoLead = ((await (await mine('GET', 'leads')).json()) as { data: { leadId: string }[] }).data[0]!
      .leadId;
    const demoKey = ((await (await mine('GET', 'api-keys')).json()) as { data: { id: string }[] }).data[0]!
      .id;
    const demoMember = ((await (await mine('GET', 'members')).json()) as { data: { userId: string }[] })
      .data[0]!.userId;

    for (const [method, path, body] of [
      ['GET', `licenses/${demoLicense}`, undefined],
      ['PATCH', `leads/${demoLead}`, { status: 'converted' }],
      ['POST', `api-keys/${demoKey}/revoke`, undefined],
      ['DELETE', `members/${demoMember}`, undefined],
    ] as const) {
      const res = await call(method, path, body);
      expect(res.status, `${method} ${path}`).toBe(404);
    }
    const theirLeads = (await (await call('GET', 'leads')).json()) as { data: unknown[] };
    expect(theirLeads.data).toEqual([]);
    const theirKeys = (await (await call('GET', 'api-keys')).json()) as { data: unknown[] };
    expect(theirKeys.data).toEqual([]);
  });
});
