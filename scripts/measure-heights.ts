import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOCAL_NETWORK_ARGS, launchChromium } from '../e2e/support/stack.ts';
import { HEIGHT_WIDTHS } from '../loader/heights.ts';
import { startStack } from '../server/test-support/stack.ts';

/**
 * `npm run measure:heights` (after `npm run build:embed`): each calculator's height as it first
 * appears (session held, nothing typed) at the widths of HEIGHT_WIDTHS, in headless Chromium,
 * written into loader/heights.ts. The loader reserves that height before the iframe paints, so
 * the host page's text does not move when the widget arrives. Run it after changing a form or
 * the widget's CSS; the layout bench (`npm run bench -- layout`) shows what a stale table costs.
 */
const HOST = 'http://firm.localhost:5175';
const CALCULATORS = ['estate-tax', 'inheritance-tax', 'probate-fees', 'executor-commission', 'rmd'];

const [stack, browser] = await Promise.all([
  startStack({ RATE_LIMIT_SCALE: '100' }),
  launchChromium(LOCAL_NETWORK_ARGS),
]);
const key = (stack.demo as { publishableKey?: string }).publishableKey ?? stack.demo.licenseKey;
const table: Record<string, number[]> = {};
try {
  for (const slug of CALCULATORS) {
    const context = await browser.newContext({ viewport: { width: 1400, height: 900 } });
    await context.route(`${HOST}/**`, (route) =>
      route.fulfill({
        contentType: 'text/html',
        body: `<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><body style="margin:0"><div id="c" data-svc-calculator="${slug}"></div><script src="${stack.embedUrl}/loader.js" data-key="${key}" data-api="${stack.apiUrl}"></script>`,
      }),
    );
    const page = await context.newPage();
    await page.addInitScript(() => {
      const w = window as unknown as { __ready: boolean; __resizeAt: number };
      w.__resizeAt = 0;
      document.addEventListener('svc-ready', () => {
        w.__ready = true;
      });
      document.addEventListener('svc-resize', () => {
        w.__resizeAt = performance.now();
      });
    });
    await page.goto(`${HOST}/`);
    await page.waitForFunction(() => (window as unknown as { __ready?: boolean }).__ready, null, {
      timeout: 20_000,
    });
    const heights: number[] = [];
    for (const width of HEIGHT_WIDTHS) {
      await page.evaluate((w) => {
        document.getElementById('c')!.style.width = `${w}px`;
      }, width);
      // Settled: the widget has not reported a new height for half a second.
      await page.waitForTimeout(200);
      await page.waitForFunction(
        () => performance.now() - (window as unknown as { __resizeAt: number }).__resizeAt > 500,
        null,
        { polling: 100, timeout: 10_000 },
      );
      heights.push(
        await page.evaluate(() =>
          Number.parseFloat(
            document
              .querySelector('#c iframe')!
              .getAttribute('style')!
              .match(/height:\s*([\d.]+)px/)![1]!,
          ),
        ),
      );
    }
    table[slug] = heights;
    await context.close();
  }
} finally {
  await browser.close();
  await stack.close();
}

const path = fileURLToPath(new URL('../loader/heights.ts', import.meta.url));
const lines = Object.entries(table).map(([slug, hs]) => `  '${slug}': [${hs.join(', ')}],`);
writeFileSync(
  path,
  `/**
 * Container widths (CSS px) at which each calculator's first height is measured; between two the
 * loader interpolates, outside them it takes the nearest.
 */
export const HEIGHT_WIDTHS = [${HEIGHT_WIDTHS.join(', ')}];

/**
 * Each calculator's height (CSS px) as it first appears, at HEIGHT_WIDTHS. Written by
 * \`npm run measure:heights\`; do not edit by hand.
 */
export const HEIGHTS: Record<string, number[]> = {
${lines.join('\n')}
};
`,
);
console.log(table);
process.exit(0);
