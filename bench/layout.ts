import { fileURLToPath } from 'node:url';
import type { Browser } from 'playwright-core';
import { LOCAL_NETWORK_ARGS, launchChromium } from '../e2e/support/stack.ts';
import { snippetOf } from '../portal/snippet.ts';
import { startStack } from '../server/test-support/stack.ts';

/** Google's "good" line for cumulative layout shift; the aim is 0.01. */
export const CLS_BUDGET = 0.1;
export const LAYOUT_WIDTHS = [375, 1280] as const;

export interface LayoutRun {
  width: number;
  /** `snippet`: the placeholder as the portal prints it (with its reserved min-height); `bare`: a plain div. */
  placeholder: 'snippet' | 'bare';
  /** The worst of the runs: the sum of every `layout-shift` entry without recent input. */
  cls: number;
  /** Median from navigation start to `svc-ready`. */
  readyMs: number;
  runs: number;
}

const HOST = 'http://firm.localhost:5174';

/**
 * A firm's page as many are: a heading, a paragraph, the widget, and text below it that must not
 * move. The widget is embedded with the portal's snippet (`snippet`), or with a bare
 * `<div data-svc-calculator>` and the same async tag (`bare`: only the loader's own reservation).
 */
export function layoutHostPage(
  target: { embed: string; api: string; key: string },
  calculator: string,
  placeholder: LayoutRun['placeholder'],
): string {
  const para =
    '<p>Our attorneys have helped families across the state plan their estates for thirty years. Call us for a free consultation about trusts, wills and probate.</p>';
  const embed =
    placeholder === 'snippet'
      ? snippetOf(target.embed, target.key, [calculator])
      : `<div data-svc-calculator="${calculator}"></div><script src="${target.embed}/loader.js" data-key="${target.key}" async></script>`;
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Firm</title></head><body style="margin:0 auto;max-width:760px;padding:16px;font:16px/1.5 system-ui,sans-serif"><h1>Estate planning</h1>${para}${embed}<h2>Below the calculator</h2>${para.repeat(8)}</body></html>`;
}

/** Runs before the page's own scripts: sums layout shifts and notes when `svc-ready` came. */
function observeLayout(): void {
  const w = window as unknown as { __cls: number; __ready?: number; __lastResize: number };
  w.__cls = 0;
  w.__lastResize = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries() as (PerformanceEntry & {
      value: number;
      hadRecentInput: boolean;
    })[])
      if (!entry.hadRecentInput) w.__cls += entry.value;
  }).observe({ type: 'layout-shift', buffered: true });
  document.addEventListener('svc-ready', () => {
    w.__ready ??= performance.now();
  });
  document.addEventListener('svc-resize', () => {
    w.__lastResize = performance.now();
  });
}

async function visit(
  browser: Browser,
  width: number,
  html: string,
): Promise<{ cls: number; readyMs: number }> {
  const context = await browser.newContext({ viewport: { width, height: 800 } });
  try {
    await context.route(`${HOST}/**`, (route) => route.fulfill({ contentType: 'text/html', body: html }));
    await context.addInitScript(observeLayout);
    const page = await context.newPage();
    if (process.env.BENCH_DEBUG) {
      page.on('console', (m) => console.log('console:', m.text()));
      page.on('pageerror', (e) => console.log('pageerror:', e.message));
    }
    await page.goto(`${HOST}/`);
    await page.waitForFunction(
      () => (window as unknown as { __ready?: number }).__ready !== undefined,
      null,
      {
        timeout: 20_000,
      },
    );
    // Settled: no resize for a second after ready (the page has loaded; nothing more should move).
    await page.waitForFunction(
      () => {
        const w = window as unknown as { __lastResize: number };
        return performance.now() - w.__lastResize > 1_000;
      },
      null,
      { timeout: 20_000, polling: 100 },
    );
    return await page.evaluate(() => {
      const w = window as unknown as { __cls: number; __ready: number };
      return { cls: w.__cls, readyMs: w.__ready };
    });
  } finally {
    await context.close();
  }
}

/**
 * Cumulative layout shift a widget causes on a host page with text below it, while the page loads
 * (no input), at a phone and a desktop width, in headless Chromium: the worst of `runs` fresh
 * visits per width, and the median time from navigation start to `svc-ready`.
 */
export async function runLayoutBench(runs = 3, calculator = 'estate-tax'): Promise<LayoutRun[]> {
  const [stack, browser] = await Promise.all([
    startStack({ RATE_LIMIT_SCALE: '100' }),
    launchChromium(LOCAL_NETWORK_ARGS),
  ]);
  const key = (stack.demo as { publishableKey?: string }).publishableKey ?? stack.demo.licenseKey;
  const target = { embed: stack.embedUrl, api: stack.apiUrl, key };
  try {
    await visit(browser, 1280, layoutHostPage(target, calculator, 'snippet')); // warms the server; not counted
    const out: LayoutRun[] = [];
    for (const placeholder of ['snippet', 'bare'] as const)
      for (const width of LAYOUT_WIDTHS) {
        const html = layoutHostPage(target, calculator, placeholder);
        const samples = [];
        for (let i = 0; i < runs; i++) samples.push(await visit(browser, width, html));
        const ready = samples.map((s) => s.readyMs).sort((a, b) => a - b);
        out.push({
          width,
          placeholder,
          cls: Math.max(...samples.map((s) => s.cls)),
          readyMs: Math.round(ready[Math.floor(ready.length / 2)]!),
          runs,
        });
      }
    return out;
  } finally {
    await browser.close();
    await stack.close();
  }
}

export function formatLayout(rows: LayoutRun[]): string {
  return rows
    .map(
      (r) =>
        `layout shift at ${r.width} px, ${r.placeholder === 'snippet' ? 'the portal’s snippet' : 'a bare placeholder'} (host page with text below the widget, worst of ${r.runs}): CLS ${r.cls.toFixed(3)} — budget ${CLS_BUDGET}, ${r.cls <= CLS_BUDGET ? 'ok' : 'OVER'}; navigation → svc-ready median ${r.readyMs} ms`,
    )
    .join('\n');
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  console.log(formatLayout(await runLayoutBench()));
  process.exit(0);
}
