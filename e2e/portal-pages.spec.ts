import { readFileSync } from 'node:fs';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../server/index.ts';
import {
  axeViolations,
  checkPortalPage,
  portalApiSession,
  signInWithLink,
  startPortalStack,
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

/** A lead from a visitor whose name is a spreadsheet formula, through the real widget API. */
async function submitFormulaLead() {
  // A production site of the firm (development hosts give test-mode leads, which lists leave out).
  const added = await fetch(`${stack.apiUrl}/admin/v1/licenses/${stack.demo.licenseId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify({ addDomains: ['formula-firm.example'] }),
  });
  expect(added.status).toBe(200);
  const session = await fetch(`${stack.apiUrl}/v1/api/license/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: 'https://formula-firm.example' },
    body: JSON.stringify({ licenseKey: stack.demo.publishableKey }),
  });
  const { token } = (await session.json()) as { token: string };
  const lead = await fetch(`${stack.apiUrl}/v1/api/leads`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      authorization: `Bearer ${token}`,
      'idempotency-key': 'e2e-formula-0001',
    },
    body: JSON.stringify({
      calculator: 'estate-tax',
      name: '=HYPERLINK("http://evil.example","Click")',
      email: 'formula@example.com',
      state: 'NY',
      consent: true,
      consentText: 'ignored: the server stores its own consent version',
    }),
  });
  expect(lead.status).toBe(201);
}

const checkPage = (page: Page, name: string, phone = true) =>
  checkPortalPage(browser, owner.context, page, name, phone);

beforeAll(async () => {
  [stack, browser] = await Promise.all([startPortalStack(), launchChromium()]);
  await submitFormulaLead();
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

  it('API keys: create with a scope, use it, revoke it, and the next call is refused', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'API keys' }).click();
    await page.getByLabel('Name').fill('Claude on the office Mac');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = (await page.getByTestId('new-api-key').textContent())!;
    expect(key).toMatch(/^svc_pat_/);
    expect(await page.locator('#new-key pre').textContent()).toContain(key);
    await page.getByRole('tab', { name: 'Cursor' }).click();
    expect(await page.locator('#new-key pre').textContent()).toContain('"Authorization": "Bearer svc_pat_');
    await checkPage(page, 'api-keys-new', false);

    const use = () => fetch(`${stack.apiUrl}/v1/api/leads`, { headers: { authorization: `Bearer ${key}` } });
    expect((await use()).status).toBe(200);
    await page.getByRole('button', { name: 'I have stored the key' }).click();
    const row = page.locator('tr', { hasText: 'Claude on the office Mac' });
    expect(await row.textContent()).toContain('leads:read');
    expect(await row.textContent()).toContain('demo@svc.test');
    await checkPage(page, 'api-keys');
    await row.getByRole('button', { name: /Revoke/ }).click();
    await expect.poll(() => row.textContent(), WAIT).toContain('revoked');
    const refused = await use();
    expect(refused.status).toBe(401);
  });

  it('leads: filter by status, change a status along the allowed moves, export the filtered CSV', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Leads' }).click();
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBe(4);
    await checkPage(page, 'leads');
    await page.getByRole('button', { name: 'New', exact: true }).click();
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBe(2);
    const picker = page.getByLabel('Status of Zoë Ødegård');
    expect(await picker.locator('option').allTextContents()).toEqual(['new', 'contacted', 'converted']);
    await picker.selectOption('contacted');
    await expect.poll(() => page.getByLabel('Status of Zoë Ødegård').inputValue(), WAIT).toBe('contacted');
    // contacted → new is not offered (and the API would refuse it).
    expect(await page.getByLabel('Status of Zoë Ødegård').locator('option').allTextContents()).toEqual([
      'contacted',
      'converted',
    ]);

    await page.getByRole('button', { name: 'Contacted', exact: true }).click();
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBe(2);
    const [download] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('link', { name: 'Export CSV' }).click(),
    ]);
    const csv = readFileSync((await download.path())!, 'utf8');
    const lines = csv
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]).toBe(
      'lead_id,created_at,name,email,phone,state,calculator,status,result_id,consented_at,consent_text',
    );
    expect(lines).toHaveLength(3);
    expect(lines.slice(1).every((l) => l.includes('"contacted"'))).toBe(true);
    expect(csv).toContain('"Zoë Ødegård"');

    const all = await fetch(`${stack.portalUrl}/v1/portal/leads/export.csv`, {
      headers: { cookie: (await owner.context.cookies()).map((c) => `${c.name}=${c.value}`).join('; ') },
    });
    const body = await all.text();
    // Formula-safe and correctly quoted: the name stays text, inner quotes doubled.
    expect(body).toContain(`"'=HYPERLINK(""http://evil.example"",""Click"")"`);
    expect(body).not.toContain(',"=HYPERLINK');
  });

  it('licenses, embed code with a live preview, activity and the other pages are clean and legible', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Licenses' }).click();
    await expect.poll(() => page.locator('main').textContent(), WAIT).toContain('Allowed domains');
    expect(await page.locator('main').textContent()).toContain('demo.svc.test');
    // The licenses screenshots come from portal-licenses.spec.ts (keys rolled, domains changed).
    expect(await axeViolations(page)).toEqual([]);

    await page.getByRole('link', { name: 'Embed code' }).click();
    // The license's publishable key fills the snippet; the secret key never appears in a page.
    await expect
      .poll(() => page.locator('#snippet pre').textContent(), WAIT)
      .toContain(`data-key="${stack.demo.publishableKey}"`);
    expect(await page.locator('main').textContent()).not.toContain(stack.demo.licenseKey);
    await page.getByRole('button', { name: 'Show preview' }).click();
    await expect
      .poll(() => page.getByRole('table', { name: 'Events from the preview' }).textContent(), {
        timeout: 30_000,
      })
      .toContain('svc-ready');
    await checkPage(page, 'embed', false);

    for (const [link, name] of [
      ['Activity', 'activity'],
      ['Members', 'members'],
      ['Sign-in & security', 'security'],
    ] as const) {
      await page.getByRole('link', { name: link }).click();
      await expect.poll(() => page.locator('.loading').count(), WAIT).toBe(0);
      await checkPage(page, name);
    }
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect.poll(() => page.locator('.timeline').textContent(), WAIT).toContain('Created API key');
    expect(await page.locator('.timeline').textContent()).toContain('Marked a lead as contacted');
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
