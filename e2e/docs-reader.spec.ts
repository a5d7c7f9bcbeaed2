import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../server/main/servers.ts';
import { startStack } from '../server/test-support/stack.ts';
import { launchChromium } from './support/stack.ts';

const SCREENSHOTS = fileURLToPath(new URL('./screenshots/docs', import.meta.url));
const WAIT = { timeout: 30_000 };
let stack: RunningServers;
let browser: Browser;

// The reference needs no embed build: the API listener alone serves /docs and the documents.
beforeAll(async () => {
  [stack, browser] = await Promise.all([startStack({ RATE_LIMIT_SCALE: '10' }), launchChromium()]);
  mkdirSync(SCREENSHOTS, { recursive: true });
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
});

/** Opens /docs at a width and records what a strict page must never do: break its CSP, leave the origin, fail. */
async function openReference(width: number) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const page = await context.newPage();
  const origin = new URL(stack.apiUrl).origin;
  const problems: string[] = [];
  await page.addInitScript(() => {
    document.addEventListener('securitypolicyviolation', (e) =>
      console.error(`csp-violation ${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  page.on('console', (m) => {
    // Zod, inside Scalar's bundle, probes once whether `new Function` works and, refused, validates
    // without compiling: the CSP doing its job, not a need for 'unsafe-eval'. Anything else counts.
    if (m.text() === 'csp-violation script-src eval') return;
    if (m.text().startsWith('csp-violation') || m.text().includes('Content Security Policy'))
      problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    if (!r.url().startsWith(origin) && !r.url().startsWith('data:')) problems.push(`left origin: ${r.url()}`);
  });
  page.on('requestfailed', (r) => problems.push(`failed: ${r.url()} ${r.failure()?.errorText}`));
  page.on('response', (r) => {
    if (r.status() >= 400) problems.push(`${r.status()}: ${r.url()}`);
  });
  await page.goto(`${stack.apiUrl}/docs`);
  return { page, problems, close: () => context.close() };
}

const operation = (page: Page) => page.getByText('Activate the secret license key for a site domain');

describe('the API reference at /docs', () => {
  it.each([
    ['desktop', 1280],
    ['phone', 390],
  ])('renders the public operations from our origin alone, within its CSP (%s)', async (name, width) => {
    const { page, problems, close } = await openReference(width);
    await expect.poll(() => operation(page).count(), WAIT).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}/reference-${name}.png` });
    // An operation with its request example, as a developer reads it.
    await page.goto(`${stack.apiUrl}/docs#public/tag/leads/POST/v1/api/leads`);
    await page.getByRole('heading', { name: /^Submit a lead from the widget/ }).waitFor(WAIT);
    await expect.poll(() => page.getByText('ada@example.com').count(), WAIT).toBeGreaterThan(0);
    await page.screenshot({ path: `${SCREENSHOTS}/reference-lead-${name}.png` });
    expect(problems).toEqual([]);
    await close();
  });
});
