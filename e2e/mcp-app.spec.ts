import { existsSync, mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, Frame, Page } from 'playwright-core';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../server/main/servers.ts';
import { axeViolations } from './support/custom-page.ts';
import { launchChromium, startStack } from './support/stack.ts';

/**
 * Issue 46: the firm's calculator inside a chat. A host page built on the MCP Apps extension's
 * host-side bridge (e2e/support/mcp-app-host.ts, bundled here with vite) runs in Chromium on a
 * plain-HTTP host name (not a secure context). Its MCP connection is the official v2 client in
 * this process, with the firm's API key: the page finds the tool that names a view, reads that
 * `ui://` resource over MCP, renders it in a sandboxed frame under the CSP the resource declares,
 * hands it the tool's arguments and result; the view, edited, recomputes through `tools/call`.
 */
const ROOT = fileURLToPath(new URL('..', import.meta.url));
const SHOTS = `${ROOT}/e2e/screenshots/mcp-app`;
const HOST = 'http://chat.assistant.test';
const FIRM = { name: 'Smith & Jones <Estate Law>', accentColor: '#1a6b4f' };
const ASKED = {
  calculator: 'estate-tax',
  inputs: { estateValue: 12_000_000, state: 'WA', dateOfDeath: '2026-12-15' },
};

let stack: RunningServers;
let browser: Browser;
let client: Client;
let hostScript: string;
const calls: { name: string; arguments?: Record<string, unknown> }[] = [];

beforeAll(async () => {
  if (!existsSync(`${ROOT}/dist/mcp-app/app.html`))
    throw new Error('dist/mcp-app/app.html is missing: run npm run build (npm run test:e2e does)');
  const bundled = build({
    configFile: false,
    logLevel: 'warn',
    build: {
      write: false,
      target: 'es2022',
      minify: false,
      lib: { entry: `${ROOT}/e2e/support/mcp-app-host.ts`, formats: ['es'], fileName: () => 'host.js' },
    },
  });
  [stack, browser] = await Promise.all([startStack(), launchChromium()]);
  const built = await bundled;
  const outputs = (Array.isArray(built) ? built : [built as { output: unknown[] }]).flatMap(
    (b) => (b as { output: { type: string; isEntry?: boolean; code?: string }[] }).output,
  );
  hostScript = outputs.find((o) => o.type === 'chunk' && o.isEntry)!.code!;
  const patched = await fetch(`${stack.apiUrl}/admin/v1/accounts/${stack.demo.accountId}`, {
    method: 'PATCH',
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify(FIRM),
  });
  expect(patched.status).toBe(200);
  client = new Client({ name: 'svc-test-host', version: '1.0.0' });
  await client.connect(
    new StreamableHTTPClientTransport(new URL(`${stack.apiUrl}/v1/mcp`), {
      requestInit: { headers: { authorization: `Bearer ${stack.demo.apiKey}` } },
    }),
  );
}, 120_000);
afterAll(async () => {
  await client?.close();
  await browser?.close();
  await stack?.close();
});

/** The chat page at a width: the host script and its MCP connection (this process's client). */
async function openChat(width: number): Promise<{ page: Page; view: Frame; errors: string[] }> {
  // Tall enough for the whole view: a full-page capture of a taller page leaves a sandboxed
  // frame's lower part unpainted in headless Chromium.
  const context = await browser.newContext({ viewport: { width, height: width < 600 ? 1500 : 900 } });
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  await page.exposeFunction('mcpListTools', async () => (await client.listTools()).tools);
  await page.exposeFunction('mcpReadResource', (uri: string) => client.readResource({ uri }));
  await page.exposeFunction(
    'mcpCallTool',
    (params: { name: string; arguments?: Record<string, unknown> }) => {
      calls.push(params);
      return client.callTool(params);
    },
  );
  await context.route(`${HOST}/**`, (route) =>
    route.fulfill({
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Assistant</title>
<style>body{margin:0;font:15px system-ui;background:#f4f4f5}#chat{max-width:1100px;margin:0 auto;padding:12px}
.bubble{background:#fff;border-radius:12px;padding:10px 14px;margin:0 0 10px}iframe{width:100%;border:1px solid #ddd;border-radius:12px;background:#fff;height:200px}</style>
</head><body><div id="chat"><p class="bubble">What would a $12 million Washington estate owe if death is in December?</p></div>
<script>window.svcAsk = ${JSON.stringify(ASKED)};</script><script type="module">${hostScript}</script></body></html>`,
    }),
  );
  await page.goto(`${HOST}/`);
  await page.waitForFunction(
    () =>
      (window as unknown as { svcHost: { initialized?: boolean; error?: string } }).svcHost?.initialized ===
        true || (window as unknown as { svcHost: { error?: string } }).svcHost?.error !== undefined,
    undefined,
    { timeout: 20_000 },
  );
  const state = await page.evaluate(
    () => (window as unknown as { svcHost: Record<string, unknown> }).svcHost,
  );
  expect(state.error).toBeUndefined();
  const view = page.frames().find((f) => f !== page.mainFrame())!;
  await view.locator('.headline').waitFor({ timeout: 20_000 });
  return { page, view, errors };
}

const shot = async (page: Page, name: string) => {
  mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

describe('the estimate view in an MCP Apps host', () => {
  it('renders the firm’s calculator, recomputes an edited input through tools/call, at 400 px and wide', async () => {
    // What the server advertises: the extension, the tool's view, the resource's type and policy, no credential.
    expect(client.getServerCapabilities()?.extensions).toEqual({
      'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] },
    });
    const { tools } = await client.listTools();
    const estimate = tools.find((t) => t.name === 'estimate')!;
    expect(estimate._meta).toEqual({ ui: { resourceUri: 'ui://svc/estimate' } });
    const { resources } = await client.listResources();
    expect(resources.find((r) => r.uri === 'ui://svc/estimate')).toMatchObject({
      mimeType: 'text/html;profile=mcp-app',
      _meta: { ui: { csp: { connectDomains: [], resourceDomains: [] } } },
    });
    const app = (await client.readResource({ uri: 'ui://svc/estimate' })).contents[0] as {
      text: string;
      _meta: unknown;
    };
    expect(app._meta).toEqual({
      ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
    });
    for (const secret of [stack.demo.apiKey, 'svc_pat_', stack.apiUrl, 'Bearer'])
      expect(app.text).not.toContain(secret);
    // The firm's name reaches the page only escaped: as HTML text in the title, as JSON inside the script.
    expect(app.text).toContain('<title>Smith &amp; Jones &lt;Estate Law&gt; · estimate</title>');
    expect(app.text).not.toContain('<Estate Law>');
    const gzipped = gzipSync(app.text, { level: 9 }).length;
    expect(gzipped).toBeLessThanOrEqual(26 * 1024);

    for (const [width, name] of [
      [400, 'chat-panel-400'],
      [1200, 'wide-1200'],
    ] as const) {
      const before = calls.length;
      const { page, view, errors } = await openChat(width);
      expect(await view.locator('#firm').textContent()).toBe(FIRM.name);
      expect(await view.locator('h1').textContent()).toBe('Estate tax');
      expect(await view.locator('.headline').textContent()).toBe('Total estate tax: $1,490,000.00');
      expect(await view.locator('.rules').textContent()).toContain('Washington rules');
      // The firm's accent, on the headline's band.
      expect(await view.locator('.headline').evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(
        'rgb(26, 107, 79)',
      );
      expect(await view.locator('#f-estateValue').inputValue()).toBe('12,000,000');
      expect(await view.locator('#f-state option:checked').textContent()).toBe('Washington');
      expect(await axeViolations(view)).toEqual([]);
      // The view reaches no network: the host enforces the declared connect-src 'none'.
      expect(
        await view.evaluate(() =>
          fetch('http://example.com/').then(
            () => 'reached',
            () => 'blocked',
          ),
        ),
      ).toBe('blocked');

      // Edited: the estate grows to $20 million; the view asks the host to call estimate again.
      await view.locator('#f-estateValue').fill('20000000');
      await view.locator('#f-estateValue').press('Tab');
      const expected = (
        (await client.callTool({
          name: 'estimate',
          arguments: { calculator: 'estate-tax', inputs: { ...ASKED.inputs, estateValue: 20_000_000 } },
        })) as { structuredContent: { headline: string } }
      ).structuredContent.headline;
      expect(expected).not.toBe('Total estate tax: $1,490,000.00');
      await view.locator('.headline', { hasText: expected }).waitFor({ timeout: 20_000 });
      const fromView = calls
        .slice(before)
        .filter((c) => (c.arguments?.inputs as { estateValue?: number })?.estateValue === 20_000_000);
      expect(fromView.length).toBeGreaterThanOrEqual(1);
      expect(
        await page.evaluate(
          () => (window as unknown as { svcHost: { toolCalls: number } }).svcHost.toolCalls,
        ),
      ).toBeGreaterThanOrEqual(1);

      // A value the calculator refuses is named beside its field, and nothing else changes.
      await view.locator('#f-estateValue').fill('abc');
      await view.locator('#f-estateValue').press('Tab');
      await view.locator('#f-estateValue-e', { hasText: 'Enter a number.' }).waitFor();
      await view.locator('#f-estateValue').fill('20,000,000');
      await view.locator('#f-estateValue').press('Tab');
      await view.waitForFunction(() => document.getElementById('f-estateValue-e')?.textContent === '');
      await view.locator('.headline', { hasText: expected }).waitFor();
      // The host sized the frame to the view (ui/notifications/size-changed).
      const height = await view.evaluate(() => document.documentElement.scrollHeight);
      await page.waitForFunction(
        (h) => Math.abs(document.querySelector('iframe')!.clientHeight - h) <= 2,
        height,
      );
      await shot(page, name);
      if (width > 600) {
        // The host turns dark: the view follows (ui/notifications/host-context-changed).
        await page.evaluate(() =>
          (
            window as unknown as { svcBridge: { sendHostContextChange(c: { theme: string }): Promise<void> } }
          ).svcBridge.sendHostContextChange({ theme: 'dark' }),
        );
        await view.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
        expect(await axeViolations(view)).toEqual([]);
        await shot(page, `${name}-dark`);
      }
      expect(errors.filter((e) => !/Failed to fetch|example\.com|Content Security Policy/.test(e))).toEqual(
        [],
      );
      await page.context().close();
    }
  }, 120_000);
});
