import { execSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { SMTPServer } from 'smtp-server';
import { expect } from 'vitest';
import { type Challenge, solveChallenge } from '../../server/domain/leads/proof-of-work.ts';
import type { RunningServers } from '../../server/main/servers.ts';
import { startStack } from '../../server/test-support/stack.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const SCREENSHOTS = `${ROOT}/e2e/screenshots/portal`;
export const WAIT = { timeout: 20_000 };

/** The real stack with the portal built (a bare `vitest --project e2e` builds what is missing). */
export function startPortalStack(env: Record<string, string> = {}): Promise<RunningServers> {
  if (!existsSync(`${ROOT}/dist/embed/loader.js`))
    execSync('npm run build:embed --silent', { cwd: ROOT, stdio: 'inherit' });
  if (!existsSync(`${ROOT}/dist/portal/index.html`))
    execSync('npm run build:portal --silent', { cwd: ROOT, stdio: 'inherit' });
  return startStack({ RATE_LIMIT_SCALE: '10', ...env });
}

interface CapturedMail {
  to: string;
  raw: string;
}

/** A local SMTP server that keeps every message (what a firm's mailbox would receive). */
export async function startMailCapture() {
  const mails: CapturedMail[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    onData(stream, session, done) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        for (const rcpt of session.envelope.rcptTo) mails.push({ to: rcpt.address, raw });
        done();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    mails,
    /** Waits for a portal link e-mailed to `to` after the first `since` mails; returns it decoded. */
    async linkFor(to: string, since = 0): Promise<string> {
      let link: string | undefined;
      await expect
        .poll(() => {
          const mail = mails
            .slice(since)
            .filter((m) => m.to === to)
            .at(-1);
          link = mail ? linkIn(mail.raw) : undefined;
          return link;
        }, WAIT)
        .toBeDefined();
      return link!;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** Undoes quoted-printable soft breaks and escapes, then finds the portal link. */
function linkIn(raw: string): string | undefined {
  const text = raw
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/g, (_, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return /https?:\/\/\S+\/portal\/(?:sign-in\/link#token=svc_ml_|invitation#token=svc_inv_)[A-Za-z0-9]+/.exec(
    text,
  )?.[0];
}

/** Opens a sign-in link in a fresh context and presses Continue; resolves on the signed-in page. */
export async function signInWithLink(
  browser: Browser,
  link: string,
  viewport = { width: 1440, height: 900 },
) {
  const context = await browser.newContext({ viewport });
  const page = await context.newPage();
  const violations = watchPage(page);
  await page.goto(link);
  await page.getByRole('button', { name: 'Continue' }).click();
  await page.locator('.sidebar').waitFor(WAIT);
  return { context, page, ...violations };
}

/** Records CSP violations and page errors; a clean page has none. */
export function watchPage(page: Page) {
  const pageErrors: string[] = [];
  page.on('pageerror', (error) => pageErrors.push(error.message));
  page.on('console', (message) => {
    if (message.type() === 'error' && /Content Security Policy/i.test(message.text()))
      pageErrors.push(message.text());
  });
  return { pageErrors };
}

const AXE = readFileSync(`${ROOT}/node_modules/axe-core/axe.min.js`, 'utf8');

/** axe-core's WCAG 2.x A/AA rules on the current page; returns the violations (ids and targets). */
export async function axeViolations(page: Page): Promise<{ id: string; nodes: string[] }[]> {
  // Runtime evaluation through the DevTools protocol, which the page's CSP does not govern.
  if (!(await page.evaluate('typeof window.axe !== "undefined"'))) await page.evaluate(AXE);
  const result = (await page.evaluate(
    `axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] } })
      .then(r => r.violations.map(v => ({ id: v.id, nodes: v.nodes.map(n => n.target.join(' ')) })))`,
  )) as { id: string; nodes: string[] }[];
  return result;
}

export async function screenshot(page: Page, name: string) {
  mkdirSync(SCREENSHOTS, { recursive: true });
  const path = `${SCREENSHOTS}/${name}.png`;
  const viewport = page.viewportSize();
  const frames = await page.locator('iframe').count();
  if (!frames || !viewport) {
    await page.screenshot({ path, fullPage: true });
    return;
  }
  // Chromium's full-page capture leaves a cross-site (out-of-process) frame that lies outside the
  // viewport blank, though a visitor who scrolls to it sees it drawn (microsoft/playwright#40583).
  // A viewport as tall as the page puts every frame in view; the frames draw, then it is captured.
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  await page.setViewportSize({ width: viewport.width, height: Math.min(height, 8000) });
  // Two animation frames in every frame: each has drawn at the new size.
  await Promise.all(
    page
      .frames()
      .map((frame) =>
        frame
          .evaluate(() => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done))))
          .catch(() => undefined),
      ),
  );
  await page.screenshot({ path, fullPage: true });
  await page.setViewportSize(viewport);
}

const CALLBACK_PATH = '/wp-admin/svc-callback';

/** A minimal Connect client: a loopback callback page that records what the portal sent back. */
export async function startConnectClient() {
  const received: URLSearchParams[] = [];
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (url.pathname !== CALLBACK_PATH) {
      res.writeHead(404).end();
      return;
    }
    received.push(url.searchParams);
    res.writeHead(200, { 'content-type': 'text/html' });
    res.end('<!doctype html><title>Connected</title><h1>Back at the plugin</h1>');
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    redirectUri: `http://localhost:${port}${CALLBACK_PATH}`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** A portal session over plain HTTP (cookie + CSRF token) from a sign-in link, as a script would hold one. */
export async function portalApiSession(portalUrl: string, link: string) {
  const token = new URL(link).hash.replace('#token=', '');
  const signIn = await fetch(`${portalUrl}/v1/portal/auth/link`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: portalUrl },
    body: JSON.stringify({ token }),
  });
  const cookie = signIn.headers.get('set-cookie')!.split(';')[0]!;
  const session = (await (await fetch(`${portalUrl}/v1/portal/session`, { headers: { cookie } })).json()) as {
    csrfToken: string;
  };
  return (method: string, path: string, body?: unknown) =>
    fetch(`${portalUrl}/v1/portal/${path}`, {
      method,
      headers: {
        cookie,
        origin: portalUrl,
        'x-csrf-token': session.csrfToken,
        ...(body ? { 'content-type': 'application/json' } : {}),
      },
      ...(body ? { body: JSON.stringify(body) } : {}),
    });
}

/**
 * axe-core clean, then screenshots at 1440 px (the signed-in context's width) and (unless `phone`
 * is false) at 390 px, a current phone, in a copy of
 * the signed-in context, where nothing may stick out sideways (scrolling regions such as wide
 * tables may scroll).
 */
export async function checkPortalPage(
  browser: Browser,
  from: BrowserContext,
  page: Page,
  name: string,
  phone = true,
  /** What the phone-width page needs before it is looked at (it opens at the page's URL afresh). */
  prepare?: (small: Page) => Promise<void>,
) {
  expect(await axeViolations(page)).toEqual([]);
  // From the top: a page scrolled by the test would catch the sticky sidebar half-way down.
  await page.evaluate(() => window.scrollTo(0, 0));
  await screenshot(page, `${name}-desktop`);
  if (!phone) return;
  const small = await newPhoneContext(browser, from);
  await small.goto(page.url());
  await expect.poll(() => small.locator('.sidebar').count(), WAIT).toBe(1);
  await expect.poll(() => small.locator('.loading').count(), WAIT).toBe(0);
  await prepare?.(small);
  expect(await axeViolations(small)).toEqual([]);
  const offenders = await small.evaluate(() =>
    document.documentElement.scrollWidth > window.innerWidth
      ? [...document.querySelectorAll('body *')]
          .filter(
            (e) =>
              !e.closest('.nav, .table-wrap, .code') &&
              e.getBoundingClientRect().right > window.innerWidth + 1,
          )
          .map((e) => `${e.tagName.toLowerCase()}.${e.className}`)
      : [],
  );
  expect(offenders).toEqual([]);
  await screenshot(small, `${name}-phone`);
  await small.context().close();
}

export async function newPhoneContext(browser: Browser, from: BrowserContext): Promise<Page> {
  const state = await from.storageState();
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, storageState: state });
  return context.newPage();
}

/**
 * A visitor's lead through the real widget API from a production site of the demo firm (added to
 * its license first; development hosts would give test-mode leads, which lists leave out).
 */
export async function submitWidgetLead(
  stack: RunningServers,
  site: string,
  key: string,
  lead: { calculator: string; name: string; email: string; state: string },
) {
  const added = await fetch(`${stack.apiUrl}/admin/v1/licenses/${stack.demo.licenseId}`, {
    method: 'PATCH',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify({ addDomains: [site] }),
  });
  expect(added.status).toBe(200);
  const session = await fetch(`${stack.apiUrl}/v1/api/license/activate`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', origin: `https://${site}` },
    body: JSON.stringify({ licenseKey: stack.demo.publishableKey }),
  });
  const { token } = (await session.json()) as { token: string };
  // The proof of work the widget would solve (a lead without one is held).
  const challenge = await fetch(`${stack.apiUrl}/v1/api/leads/challenge`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: '{}',
  });
  const { tries: _tries, ...solution } = solveChallenge((await challenge.json()) as Challenge);
  const altcha = Buffer.from(JSON.stringify(solution)).toString('base64');
  const res = await fetch(`${stack.apiUrl}/v1/api/leads`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}`, 'idempotency-key': key },
    body: JSON.stringify({
      ...lead,
      consent: true,
      consentText: 'ignored: the server stores its own',
      altcha,
    }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { leadId: string }).leadId;
}
