import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { Browser, BrowserContextOptions, Frame, Page } from 'playwright-core';
import type { RunningServers } from '../../server/main/servers.ts';

/** The key a page puts in `data-key`: the publishable key once the stack has one, else the license key. */
export function pageKey(stack: RunningServers): string {
  const demo = stack.demo as RunningServers['demo'] & { publishableKey?: string };
  return demo.publishableKey ?? demo.licenseKey;
}

/**
 * A host page at any origin (e.g. `https://firm.example`, a domain the license does not allow),
 * answered by the browser context itself: the page's own origin is real to the browser, while
 * the loader, the widget pages and the API are the real stack on loopback.
 */
export async function openCustomPage(
  browser: Browser,
  opts: { origin: string; body: string; context?: BrowserContextOptions; head?: string },
) {
  const context = await browser.newContext(opts.context);
  await context.route(`${opts.origin}/**`, (route) =>
    route.fulfill({
      status: 200,
      contentType: 'text/html; charset=utf-8',
      body: `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Host page</title>${opts.head ?? ''}</head><body>${opts.body}</body></html>`,
    }),
  );
  const page = await context.newPage();
  const pageErrors: Error[] = [];
  page.on('pageerror', (error) => pageErrors.push(error));
  await page.addInitScript(() => {
    const seen: { type: string; detail: unknown }[] = [];
    (window as unknown as { __events: typeof seen }).__events = seen;
    for (const type of ['svc-ready', 'svc-resize', 'svc-result', 'svc-lead', 'svc-error']) {
      document.addEventListener(type, (e) => seen.push({ type, detail: (e as CustomEvent).detail }), true);
    }
  });
  await page.goto(`${opts.origin}/`);
  const events = async (type?: string) => {
    const all = await page.evaluate(
      () => (window as unknown as { __events: { type: string; detail: never }[] }).__events,
    );
    return type ? all.filter((e) => e.type === type) : all;
  };
  return {
    page,
    pageErrors,
    events,
    count: async (type: string) => (await events(type)).length,
    /** The n-th widget's frame (the page's iframes on the embed origin, in order). */
    async frame(n = 0): Promise<Frame> {
      const handle = await page.locator('iframe').nth(n).elementHandle();
      const frame = await handle?.contentFrame();
      if (!frame) throw new Error('no widget frame');
      return frame;
    },
    close: () => context.close(),
  };
}

export type CustomPage = Awaited<ReturnType<typeof openCustomPage>>;

const AXE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** axe-core's violations inside a widget frame (WCAG 2.x A and AA rules). */
export async function axeViolations(frame: Frame): Promise<{ id: string; nodes: string[] }[]> {
  await frame.evaluate(AXE);
  return frame.evaluate(async () => {
    const axe = (
      window as unknown as {
        axe: {
          run: (
            ctx: unknown,
            opts: unknown,
          ) => Promise<{ violations: { id: string; nodes: { target: string[] }[] }[] }>;
        };
      }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations.map((v) => ({ id: v.id, nodes: v.nodes.map((n) => n.target.join(' ')) }));
  });
}

/** Listeners for `message` on the page's window, read through the DevTools protocol. */
export async function windowMessageListeners(page: Page): Promise<number> {
  const cdp = await page.context().newCDPSession(page);
  const { result } = await cdp.send('Runtime.evaluate', { expression: 'window' });
  const { listeners } = await cdp.send('DOMDebugger.getEventListeners', { objectId: result.objectId! });
  await cdp.detach();
  return listeners.filter((l) => l.type === 'message').length;
}
