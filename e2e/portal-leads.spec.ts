import { readFileSync } from 'node:fs';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateName } from '../calculators/limits.ts';
import type { RunningServers } from '../server/main/servers.ts';
import {
  axeViolations,
  checkPortalPage,
  newPhoneContext,
  SCREENSHOTS,
  screenshot,
  signInWithLink,
  startPortalStack,
  submitWidgetLead,
  WAIT,
} from './support/portal.ts';
import { launchChromium } from './support/stack.ts';

/**
 * The Leads and Activity pages against the real stack: 60 demo leads over 90 days, and a plan
 * quota of one lead a day; two visitors' leads through the widget API arrive held as possible spam
 * for their own signals (a link in the name, a throwaway e-mail domain).
 */
let stack: RunningServers;
let browser: Browser;
let owner: Awaited<ReturnType<typeof signInWithLink>>;
let heldId: string;
let throwawayId: string;

const QUOTA_OF_ONE = JSON.stringify(
  Object.fromEntries(['trial', 'starter', 'pro', 'agency'].map((p) => [p, { leadsPerDay: 1 }])),
);

interface LeadRow {
  leadId: string;
  name: string;
  email: string;
  calculator: string;
  state: string;
  status: string;
  createdAt: string;
}

/** The portal's own JSON API with the owner's session cookie (reads need no CSRF token). */
const portalGet = async (path: string) => {
  const res = await owner.context.request.get(`${stack.portalUrl}/v1/portal/${path}`);
  return { status: res.status(), body: (await res.json()) as Record<string, unknown> };
};

const checkPage = (page: Page, name: string, phone = true) =>
  checkPortalPage(browser, owner.context, page, name, phone);

/** Every quoted field of each CSV data row (RFC 4180 as the export writes it). */
function csvRows(csv: string): Record<string, string>[] {
  const [header, ...rows] = csv
    .replace(/^\uFEFF/, '')
    .trim()
    .split('\r\n');
  const columns = header!.split(',');
  return rows.map((row) => {
    const fields = [...row.matchAll(/"((?:[^"]|"")*)"(?:,|$)/g)].map((m) => m[1]!.replace(/""/g, '"'));
    return Object.fromEntries(columns.map((c, i) => [c, fields[i]!]));
  });
}

async function download(page: Page, link: string) {
  const [file] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('link', { name: link }).click(),
  ]);
  return readFileSync((await file.path())!, 'utf8');
}

beforeAll(async () => {
  [stack, browser] = await Promise.all([startPortalStack({ PLANS: QUOTA_OF_ONE }), launchChromium()]);
  const seeded = await fetch(`${stack.apiUrl}/admin/v1/demo/seed`, {
    method: 'POST',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({ accountId: stack.demo.accountId, leads: 60, days: 90 }),
  });
  expect(seeded.status).toBe(200);
  heldId = await submitWidgetLead(stack, 'held-firm.example', 'e2e-held-0001', {
    calculator: 'estate-tax',
    name: '=HYPERLINK("http://evil.example","Held")',
    email: 'held@example.com',
    state: 'VT',
  });
  throwawayId = await submitWidgetLead(stack, 'held-firm.example', 'e2e-held-0002', {
    calculator: 'estate-tax',
    name: 'Pat Doe',
    email: 'pat@mailinator.com',
    state: 'VT',
  });
  owner = await signInWithLink(browser, stack.demoSignInLink!);
  owner.page.on('dialog', (dialog) => dialog.accept());
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

describe('API keys with a real MCP client', () => {
  it('a key created in the portal answers get_leads on /v1/mcp; revoked, the next call is refused', async () => {
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

    const client = new Client({ name: 'e2e-portal', version: '1.0.0' });
    await client.connect(
      new StreamableHTTPClientTransport(new URL(`${stack.apiUrl}/v1/mcp`), {
        requestInit: { headers: { authorization: `Bearer ${key}` } },
      }),
    );
    const first = await client.callTool({ name: 'get_leads', arguments: { limit: 5 } });
    expect(first.isError ?? false).toBe(false);
    expect((first.structuredContent as { leads: unknown[] }).leads).toHaveLength(5);

    await page.getByRole('button', { name: 'I have stored the key' }).click();
    const row = page.locator('tr', { hasText: 'Claude on the office Mac' });
    expect(await row.textContent()).toContain('leads:read');
    expect(await row.textContent()).toContain('demo@svc.test');
    await checkPage(page, 'api-keys');
    await row.getByRole('button', { name: /Revoke/ }).click();
    await expect.poll(() => row.textContent(), WAIT).toContain('revoked');

    // The same connected client, the very next call: refused (401), no data.
    await expect(client.callTool({ name: 'get_leads', arguments: { limit: 5 } })).rejects.toThrow();
    await client.close().catch(() => {});
  });
});

describe('leads', () => {
  it('filters by calculator, state and dates in the URL; the CSV holds exactly the filtered rows', async () => {
    const { page } = owner;
    const all = ((await portalGet('leads?limit=200')).body.data as LeadRow[]).filter(Boolean);
    // The busiest calculator, its busiest state, and the later half of its leads there.
    const count = <T>(items: T[]) =>
      [...items.reduce((m, x) => m.set(x, (m.get(x) ?? 0) + 1), new Map<T, number>())].sort(
        (a, b) => b[1] - a[1],
      )[0]![0];
    const calculator = count(all.map((l) => l.calculator));
    const state = count(all.filter((l) => l.calculator === calculator).map((l) => l.state));
    const inState = all.filter((l) => l.calculator === calculator && l.state === state);
    const from = inState[Math.floor((inState.length - 1) / 2)]!.createdAt.slice(0, 10);
    const to = inState[0]!.createdAt.slice(0, 10);
    const expected = inState.filter((l) => l.createdAt.slice(0, 10) >= from);

    await page.getByRole('link', { name: 'Leads', exact: true }).click();
    await expect.poll(() => page.getByRole('img', { name: /Leads per week/ }).count(), WAIT).toBe(1);
    await page.getByLabel('Calculator', { exact: true }).selectOption(calculator);
    await expect.poll(() => new URL(page.url()).searchParams.get('calculator'), WAIT).toBe(calculator);
    await page.getByLabel('State', { exact: true }).selectOption(state);
    await page.getByLabel('From', { exact: true }).fill(from);
    await page.getByLabel('To', { exact: true }).fill(to);
    const words = `${expected.length} lead${expected.length === 1 ? '' : 's'} match these filters`;
    await expect.poll(() => page.locator('.result-count').textContent(), WAIT).toBe(words);
    expect(await page.locator('.table-stack tbody tr').count()).toBe(expected.length);
    expect(await page.locator('.table-stack tbody [data-label="State"]').allTextContents()).toEqual(
      expected.map(() => stateName(state)),
    );

    // A reload (or a shared link) shows the same view.
    const shared = page.url();
    expect(new URL(shared).searchParams.get('from')).toBe(from);
    await page.reload();
    await expect.poll(() => page.locator('.result-count').textContent(), WAIT).toBe(words);
    expect(await page.getByLabel('State', { exact: true }).inputValue()).toBe(state);
    // The chart above the list counts the leads the list shows.
    await expect
      .poll(() => page.locator('#lead-chart-desc').textContent(), WAIT)
      .toMatch(new RegExp(`^${expected.length} leads? between`));
    await checkPage(page, 'leads');

    const rows = csvRows(await download(page, 'Export CSV'));
    expect(rows.map((r) => r.lead_id)).toEqual(expected.map((l) => l.leadId));
    expect(rows.every((r) => r.calculator === calculator && r.state === state)).toBe(true);
    expect(rows.every((r) => r.created_at!.slice(0, 10) >= from && r.created_at!.slice(0, 10) <= to)).toBe(
      true,
    );
  });

  it('the weekly chart is an accessible SVG with a table of the same figures', async () => {
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal/leads`);
    const chart = page.getByRole('img', { name: /Leads per week/ });
    await expect.poll(() => chart.count(), WAIT).toBe(1);
    const described = await chart.evaluate((svg) => svg.querySelector('desc')?.textContent ?? '');
    expect(described).toMatch(/\d+ leads between/);
    await page.getByText('Show as table').click();
    const totals = await page.locator('.chart-table tbody td:last-child').allTextContents();
    const sum = totals.reduce((n, t) => n + Number(t), 0);
    const chartData = (await portalGet('leads/chart')).body as { weeks: { total: number }[] };
    expect(sum).toBe(chartData.weeks.reduce((n, w) => n + w.total, 0));
    expect(sum).toBeGreaterThan(40); // 60 demo leads over 90 days, 3 samples today, test and held ones not
    expect(await axeViolations(page)).toEqual([]);
    await page.getByText('Show as table').click();
    await page.locator('.chart').screenshot({ path: `${SCREENSHOTS}/chart-desktop.png` });
    const small = await newPhoneContext(browser, owner.context);
    await small.goto(`${stack.portalUrl}/portal/leads`);
    await expect.poll(() => small.getByRole('img', { name: /Leads per week/ }).count(), WAIT).toBe(1);
    await small.locator('.chart').screenshot({ path: `${SCREENSHOTS}/chart-phone.png` });
    await small.context().close();
  });

  it('a lead opens from its alert link: result figures, allowed statuses only, a status change', async () => {
    const { page } = owner;
    const lead = ((await portalGet('leads?status=new&calculator=estate-tax')).body.data as LeadRow[])[0]!;
    // The lead alert e-mail links to {portal}/portal/leads/{leadId}.
    await page.goto(`${stack.portalUrl}/portal/leads/${lead.leadId}`);
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toBe(lead.name);
    expect(await page.locator('.headline-figure').textContent()).toMatch(/\$[\d,]+\.\d\d/);
    const picker = page.getByLabel('Status', { exact: true });
    const lost = ['lost — went elsewhere', 'lost — not a fit', 'lost — no answer', 'lost — other'];
    expect(await picker.locator('option').allTextContents()).toEqual([
      'new',
      'contacted',
      'converted',
      ...lost,
    ]);
    await picker.selectOption('contacted');
    await expect
      .poll(() => page.getByLabel('Status', { exact: true }).locator('option').allTextContents(), WAIT)
      .toEqual(['contacted', 'converted', ...lost]);
    const stored = (await portalGet(`leads/${lead.leadId}`)).body as { lead: { status: string } };
    expect(stored.lead.status).toBe('contacted');
    await checkPage(page, 'lead-detail');
  });

  it('sorts by priority, searches by a name’s start, marks a lead lost with its reason and keeps a note', async () => {
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal/leads`);
    await page.getByLabel('Sort by', { exact: true }).selectOption('priority');
    await expect.poll(() => new URL(page.url()).searchParams.get('sort'), WAIT).toBe('priority');
    const api = (await portalGet('leads?sort=priority&limit=50')).body.data as (LeadRow & {
      priority?: { level: string; reasons: string[] };
      value?: { amount: number };
    })[];
    expect(api[0]!.priority!.level).toBe('high');
    expect(api[0]!.priority!.reasons.length).toBeGreaterThan(0);
    await expect
      .poll(() => page.locator('.table-stack tbody td[data-label="Priority"]').first().textContent(), WAIT)
      .toBe('high');
    await checkPage(page, 'leads-by-priority');

    const prefix = api[0]!.name.slice(0, 3).toUpperCase();
    const matching = (await portalGet(`leads?q=${encodeURIComponent(prefix)}&limit=200`)).body;
    await page.getByLabel('Search', { exact: true }).fill(prefix);
    await page.getByLabel('Search', { exact: true }).press('Enter');
    await expect.poll(() => new URL(page.url()).searchParams.get('q'), WAIT).toBe(prefix);
    await expect
      .poll(() => page.locator('.table-stack tbody tr').count(), WAIT)
      .toBe((matching.data as unknown[]).length);

    // A month is picked from a list (this one first); it replaces a from/to range and the reverse.
    const month = new Date().toISOString().slice(0, 7);
    const inMonth = (await portalGet(`leads?month=${month}&limit=200`)).body.data as LeadRow[];
    await page.goto(`${stack.portalUrl}/portal/leads?from=2020-01-01`);
    await page.getByLabel('Month', { exact: true }).selectOption(month);
    await expect.poll(() => new URL(page.url()).searchParams.get('month'), WAIT).toBe(month);
    expect(new URL(page.url()).searchParams.get('from')).toBeNull();
    expect(await page.getByLabel('From', { exact: true }).inputValue()).toBe('');
    await expect.poll(() => page.locator('.table-stack tbody tr').count(), WAIT).toBe(inMonth.length);
    expect(inMonth.length).toBeGreaterThan(0);
    expect(inMonth.every((l) => l.createdAt.startsWith(month))).toBe(true);
    await page.getByLabel('To', { exact: true }).fill(`${month}-01`);
    await expect.poll(() => new URL(page.url()).searchParams.get('month'), WAIT).toBeNull();
    expect(await page.getByLabel('Month', { exact: true }).inputValue()).toBe('');

    // The highest-rated lead that can still be lost (a converted one has nowhere to go).
    const target = api.find((l) => l.status === 'new' || l.status === 'contacted')!;
    await page.goto(`${stack.portalUrl}/portal/leads/${target.leadId}`);
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toBe(target.name);
    expect(await page.locator('.priority-reasons li').allTextContents()).toEqual(target.priority!.reasons);
    await page.getByLabel('Status', { exact: true }).selectOption('lost:not_a_fit');
    await expect.poll(() => page.getByText('Lost because').count(), WAIT).toBe(1);
    expect(
      await page.locator('.lead-facts-row', { hasText: 'Lost because' }).locator('dd').textContent(),
    ).toBe('not a fit');
    await page.getByLabel('Add a note', { exact: true }).fill('Left a voicemail Tuesday.');
    await page.getByRole('button', { name: 'Add note' }).click();
    await expect
      .poll(() => page.locator('.note-text').allTextContents(), WAIT)
      .toEqual(['Left a voicemail Tuesday.']);
    const stored = (await portalGet(`leads/${target.leadId}`)).body as {
      lead: { status: string; lostReason: string };
      notes: { text: string }[];
    };
    expect(stored.lead).toMatchObject({ status: 'lost', lostReason: 'not_a_fit' });
    expect(stored.notes.map((n) => n.text)).toEqual(['Left a voicemail Tuesday.']);
    await checkPage(page, 'lead-detail-worked');
    // The work list and the worked lead as a person sees them at 1440 and 390 px (one screen each).
    for (const [width, height] of [
      [1440, 900],
      [390, 844],
    ] as const) {
      const context = await browser.newContext({
        viewport: { width, height },
        storageState: await owner.context.storageState(),
      });
      const view = await context.newPage();
      await view.goto(`${stack.portalUrl}/portal/leads?sort=priority`);
      await expect.poll(() => view.locator('.table-stack tbody tr').count(), WAIT).toBeGreaterThan(0);
      await view.locator('.filters').scrollIntoViewIfNeeded();
      await view.evaluate(() =>
        window.scrollBy(0, (document.querySelector('.filters')?.getBoundingClientRect().top ?? 0) - 16),
      );
      await view.screenshot({ path: `${SCREENSHOTS}/leads-worklist-${width}.png` });
      // Filters on one baseline: the controls of each row of the filter bar end at the same line.
      const rows = await view.evaluate(() => {
        const bottoms = new Map<number, number[]>();
        for (const el of document.querySelectorAll(
          '.filters select, .filters input:not([type="checkbox"])',
        )) {
          const box = el.getBoundingClientRect();
          if (box.width === 0 || el.closest('.filters-end')) continue;
          const label = el.closest('.field')?.querySelector('label')?.getBoundingClientRect().top ?? 0;
          const row = Math.round(label);
          bottoms.set(row, [...(bottoms.get(row) ?? []), Math.round(box.bottom)]);
        }
        return [...bottoms.values()];
      });
      expect(rows.length, `${width} px`).toBeGreaterThan(1);
      for (const row of rows) expect(new Set(row).size, `${width} px: ${JSON.stringify(rows)}`).toBe(1);
      await view.goto(`${stack.portalUrl}/portal/leads/${target.leadId}`);
      await expect.poll(() => view.locator('.note-text').count(), WAIT).toBe(1);
      await view.screenshot({ path: `${SCREENSHOTS}/lead-worked-${width}.png` });
      await view.locator('.note-list').scrollIntoViewIfNeeded();
      await view.screenshot({ path: `${SCREENSHOTS}/lead-worked-notes-${width}.png` });
      await context.close();
    }
  }, 120_000);

  it('a banner on Overview and Leads lists held leads with reasons, names defanged; one-step release', async () => {
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal`);
    const banner = page.locator('.held-banner');
    await expect.poll(() => banner.textContent(), WAIT).toContain('2 leads held as possible spam');
    const text = (await banner.textContent())!;
    expect(text).toContain('a link in the name (1)');
    expect(text).toContain('a throwaway e-mail domain (1)');
    expect(text).toContain('=HYPERLINK("hxxp://evil[.]example","Held")');
    expect(text).not.toContain('evil.example');
    await checkPage(page, 'held-banner-overview');
    await page.goto(`${stack.portalUrl}/portal/leads`);
    await expect.poll(() => banner.textContent(), WAIT).toContain('2 leads held as possible spam');
    await checkPage(page, 'held-banner-leads');
    await banner.getByRole('button', { name: 'Release Pat Doe' }).click();
    await expect.poll(() => banner.textContent(), WAIT).toContain('1 lead held as possible spam');
    expect((await portalGet(`leads/${throwawayId}`)).body).toMatchObject({ lead: { quarantined: false } });
  }, 120_000);

  it('a quarantined lead is shown on request and released into the usual flow', async () => {
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal/leads?quarantined=only`);
    await expect.poll(() => page.locator('.table-stack tbody tr').count(), WAIT).toBe(1);
    const rows = csvRows(await download(page, 'Export CSV'));
    expect(rows.map((r) => [r.lead_id, r.quarantined])).toEqual([[heldId, 'true']]);
    // Formula-safe: the visitor's "name" stays text in a spreadsheet.
    expect(rows[0]!.name).toBe(`'=HYPERLINK("http://evil.example","Held")`);

    await page.locator('.table-stack tbody tr a').first().click();
    await expect.poll(() => page.locator('.notice-warn').count(), WAIT).toBe(1);
    await page.getByRole('button', { name: 'Release from quarantine' }).click();
    await expect.poll(() => page.locator('.notice-warn').count(), WAIT).toBe(0);
    const after = (await portalGet('leads?quarantined=only')).body.data as unknown[];
    expect(after).toEqual([]);
  });

  it("one person's data: exported as JSON, then deleted after a named confirmation", async () => {
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal/leads/${heldId}`);
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('HYPERLINK');
    const exported = JSON.parse(await download(page, 'Export their data (JSON)')) as {
      email: string;
      leads: { id: string }[];
    };
    expect(exported.email).toBe('held@example.com');
    expect(exported.leads.map((l) => l.id)).toEqual([heldId]);

    await page.getByRole('button', { name: 'Delete their data…' }).click();
    const dialog = page.getByRole('dialog', { name: /Delete all data about =HYPERLINK/ });
    await expect.poll(() => dialog.isVisible(), WAIT).toBe(true);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'lead-delete-desktop');
    // Escape cancels and nothing is deleted.
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.isVisible(), WAIT).toBe(false);
    expect((await portalGet(`leads/${heldId}`)).status).toBe(200);

    await page.getByRole('button', { name: 'Delete their data…' }).click();
    await dialog.getByRole('button', { name: 'Delete permanently' }).click();
    await expect.poll(() => new URL(page.url()).pathname, WAIT).toBe('/portal/leads');
    expect((await portalGet(`leads/${heldId}`)).status).toBe(404);
  });
});

describe('activity', () => {
  it('lists key, lead and privacy actions in words with who did them; filters by kind', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect.poll(() => page.locator('.timeline').textContent(), WAIT).toContain('Created API key');
    const text = (await page.locator('.timeline').textContent())!;
    for (const words of [
      'Revoked API key “Claude on the office Mac”',
      'An AI assistant ran get_leads',
      'Moved a lead from new to contacted',
      'to lost (not a fit)',
      'Wrote a note on a lead',
      'Released a lead from quarantine',
      'Exported a person’s data (1 lead)',
      'Deleted a person’s lead and its data',
      'Signed in with an e-mail link',
      'Daily lead figure reached',
    ])
      expect(text).toContain(words);
    expect(text).toContain('demo@svc.test');
    await checkPage(page, 'activity');

    await page.getByLabel('Show').selectOption('leads');
    await expect.poll(() => new URL(page.url()).searchParams.get('kind'), WAIT).toBe('leads');
    await expect
      // Five lead events (two releases), a lead marked lost and a note on it, and the two CSV
      // exports above: an export of personal data is audited too.
      .poll(async () => (await page.locator('.timeline-what').allTextContents()).length, WAIT)
      .toBe(9);
    expect(await page.locator('.timeline').textContent()).not.toContain('API key');
    expect(await axeViolations(page)).toEqual([]);
    expect(owner.pageErrors).toEqual([]);
  });
});
