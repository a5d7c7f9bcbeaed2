import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { LOCAL_NETWORK_ARGS, launchChromium } from '../e2e/support/stack.ts';
import { HEIGHT_COUNT, HEIGHT_FROM, HEIGHT_STEP } from '../loader/heights.ts';
import { startStack } from '../server/test-support/stack.ts';

/**
 * `npm run measure:heights` (after `npm run build:embed`): each calculator's height as it first
 * appears (session held, nothing typed) at the widths of loader/heights.ts, in headless Chromium,
 * written into loader/heights.ts. The loader reserves that height before the iframe paints, so
 * the host page's text does not move when the widget arrives. Run it after changing a form or
 * the widget's CSS; the layout bench (`npm run bench -- layout`) shows what a stale table costs.
 */
const HOST = 'http://firm.localhost:5175';
/** `MEASURE_LANG=es npm run measure:heights`: the same heights in another language, printed, not written. */
const LANG = process.env.MEASURE_LANG;
const HEIGHT_WIDTHS = Array.from({ length: HEIGHT_COUNT }, (_, i) => HEIGHT_FROM + i * HEIGHT_STEP);
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
        body: `<!doctype html><meta name="viewport" content="width=device-width, initial-scale=1"><body style="margin:0"><div id="c" data-svc-calculator="${slug}"${LANG ? ` data-svc-lang="${LANG}"` : ''}></div><script src="${stack.embedUrl}/loader.js" data-key="${key}" data-api="${stack.apiUrl}"></script>`,
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
    // The first width is measured after a wider one, like every other (a fresh page reports early).
    for (const width of [1000, ...HEIGHT_WIDTHS]) {
      await page.evaluate((w) => {
        document.getElementById('c')!.style.width = `${w}px`;
      }, width);
      // Settled: the widget has not reported a new height for half a second.
      await page.waitForTimeout(500);
      await page.waitForFunction(
        () => performance.now() - (window as unknown as { __resizeAt: number }).__resizeAt > 1_000,
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
    table[slug] = heights.slice(1);
    await context.close();
  }
} finally {
  await browser.close();
  await stack.close();
}

/** Two base-36 digits per height (up to 1,295 px; a taller first height would need a third). */
const encode = (hs: number[]) =>
  hs.map((h) => Math.min(1295, Math.ceil(h)).toString(36).padStart(2, '0')).join('');
const lines = Object.entries(table).map(
  ([slug, hs]) => `  ${/-/.test(slug) ? `'${slug}'` : slug}: '${encode(hs)}', // ${hs.join(', ')} px`,
);
const path = fileURLToPath(new URL('../loader/heights.ts', import.meta.url));
const current = readFileSync(path, 'utf8');
if (LANG) console.log(lines.join('\n'));
else
  writeFileSync(
    path,
    `${current.slice(0, current.indexOf('export const HEIGHTS'))}export const HEIGHTS: Record<string, string> = {\n${lines.join('\n')}\n};\n`,
  );
console.log(table);
process.exit(0);
