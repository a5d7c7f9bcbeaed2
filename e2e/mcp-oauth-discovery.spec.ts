import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../server/main/servers.ts';
import { freePort } from '../server/test-support/free-port.ts';
import { type HostNames, startHostNames } from './support/host-names.ts';
import {
  axeViolations,
  screenshot,
  signInWithLink,
  startMailCapture,
  startPortalStack,
  WAIT,
  watchPage,
} from './support/portal.ts';
import { launchChromium } from './support/stack.ts';

/**
 * Issue 35: MCP OAuth as a new user meets it. The official SDK client connects to the address the
 * portal gives (`<API>/v1/mcp`), discovers the protected-resource and authorization-server
 * metadata, registers with claude.ai's callback, and sends the browser to the authorization
 * endpoint the metadata advertises; the owner approves in Chromium, the client redeems the code and
 * calls a tool. Twice: with the defaults of `npm start` (API on 127.0.0.1, portal on localhost) and
 * with the API and the portal on their own host names over HTTPS (a TLS proxy on loopback, the
 * names mapped by Chromium's --host-resolver-rules). The owner signed in by the banner's link
 * approves without signing in again; an owner not signed in signs in by e-mailed link from the
 * consent page and lands back on it.
 */
const OWNER = 'demo@svc.test';
const CALLBACK = 'https://claude.ai/api/mcp/auth_callback';
const NAMES = { api: 'api.svc-firm.test', portal: 'portal.svc-firm.test' };

let browser: Browser;
let mail: Awaited<ReturnType<typeof startMailCapture>>;
let hosts: HostNames;
const deployments: Record<string, { stack: RunningServers; fetch: typeof fetch }> = {};

beforeAll(async () => {
  mail = await startMailCapture();
  const apiPort = await freePort();
  hosts = await startHostNames([NAMES.api, NAMES.portal], apiPort);
  const [defaults, separate, chromium] = await Promise.all([
    startPortalStack({ SMTP_URL: mail.url }),
    startPortalStack({
      SMTP_URL: mail.url,
      API_PORT: String(apiPort),
      PUBLIC_API_URL: hosts.url(NAMES.api),
      PUBLIC_PORTAL_URL: hosts.url(NAMES.portal),
    }),
    launchChromium(hosts.chromiumArgs),
  ]);
  deployments.defaults = { stack: defaults, fetch };
  deployments['separate hosts'] = { stack: separate, fetch: hosts.fetch };
  browser = chromium;
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await Promise.all(Object.values(deployments).map((d) => d.stack.close()));
  await hosts?.close();
  await mail?.close();
});

/**
 * An MCP host as claude.ai is one: an OAuth client provider registering by DCR with claude.ai's
 * callback, and a log of every request its SDK makes.
 */
function claudeLike(baseFetch: typeof fetch) {
  let info: unknown;
  let tokens: unknown;
  let verifier = '';
  let discovery: unknown;
  const requests: string[] = [];
  const state: { authorizationUrl?: URL } = {};
  const provider = {
    redirectUrl: CALLBACK,
    clientMetadata: {
      client_name: 'Claude',
      redirect_uris: [CALLBACK],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    },
    clientInformation: () => info,
    saveClientInformation: (value: unknown) => {
      info = value;
    },
    tokens: () => tokens,
    saveTokens: (value: unknown) => {
      tokens = value;
    },
    saveCodeVerifier: (value: string) => {
      verifier = value;
    },
    codeVerifier: () => verifier,
    // Kept with the verifier, so the SDK checks the callback's `iss` against the server it discovered.
    saveDiscoveryState: (value: unknown) => {
      discovery = value;
    },
    discoveryState: () => discovery,
    redirectToAuthorization: (url: URL) => {
      state.authorizationUrl = url;
    },
  };
  const logged: typeof fetch = (input, init) => {
    const request = new Request(input, init);
    requests.push(`${request.method} ${request.url}`);
    return baseFetch(request);
  };
  return { provider, requests, state, fetch: logged };
}

/** Where the browser comes back to claude.ai: answered here, the query kept for the client. */
async function claudeCallback(context: BrowserContext) {
  const received: URLSearchParams[] = [];
  await context.route(`${CALLBACK}**`, (route) => {
    received.push(new URL(route.request().url()).searchParams);
    return route.fulfill({
      status: 200,
      contentType: 'text/html',
      body: '<!doctype html><title>Claude</title>',
    });
  });
  return received;
}

/** The SDK client's first connection: discovery, registration, and the URL it sends the browser to. */
async function startConnecting(stack: RunningServers, baseFetch: typeof fetch) {
  const client = claudeLike(baseFetch);
  const mcpUrl = new URL(`${stack.apiUrl}/v1/mcp`);
  // biome-ignore lint/suspicious/noExplicitAny: the provider satisfies the SDK's interface structurally
  const options = { authProvider: client.provider as any, fetch: client.fetch };
  const transport = new StreamableHTTPClientTransport(mcpUrl, options);
  await expect(new Client({ name: 'claude-like', version: '1' }).connect(transport)).rejects.toThrow();
  // The SDK followed what the server advertises, from the 401 on the MCP endpoint onwards.
  const api = stack.apiUrl;
  expect(client.requests).toEqual(
    expect.arrayContaining([
      `GET ${api}/.well-known/oauth-protected-resource/v1/mcp`,
      `GET ${api}/.well-known/oauth-authorization-server`,
      `POST ${api}/oauth/register`,
    ]),
  );
  const advertised = (await (await baseFetch(`${api}/.well-known/oauth-authorization-server`)).json()) as {
    authorization_endpoint: string;
  };
  const url = client.state.authorizationUrl!;
  expect(`${url.origin}${url.pathname}`).toBe(advertised.authorization_endpoint);
  /** After the browser came back: redeem the code (the SDK checks `iss`) and call a tool. */
  const finish = async (back: URLSearchParams) => {
    expect(back.get('state')).toBe(url.searchParams.get('state'));
    await transport.finishAuth(back);
    const connected = new Client({ name: 'claude-like', version: '1' });
    await connected.connect(new StreamableHTTPClientTransport(mcpUrl, options));
    const stats = await connected.callTool({ name: 'get_directory_stats', arguments: {} });
    expect(stats.isError).toBeFalsy();
    await connected.close();
  };
  return { authorizationUrl: url, finish };
}

/** The page a phone shows for `url`, with the cookies `from` holds (none: a fresh browser). */
async function phoneShot(url: string, name: string, ready: string, from?: BrowserContext) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    ...(from ? { storageState: await from.storageState() } : {}),
  });
  const page = await context.newPage();
  await page.goto(url);
  await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain(ready);
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter((e) => e.getBoundingClientRect().right > innerWidth + 1)
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
  );
  expect(wide).toEqual([]);
  await screenshot(page, `${name}-phone`);
  await context.close();
}

const sessionCookies = async (context: BrowserContext) =>
  (await context.cookies())
    .filter((c) => c.name.endsWith('svc_session'))
    .map(({ name, domain, secure, httpOnly }) => ({ name, domain, secure, httpOnly }));

async function approve(page: Page, received: URLSearchParams[]) {
  await page.getByRole('button', { name: 'Approve' }).click();
  await expect.poll(() => received.length, WAIT).toBe(1);
  expect(received[0]!.get('code')).toMatch(/^svc_mac_/);
  return received[0]!;
}

describe.each([
  {
    name: 'defaults',
    slug: 'defaults',
    // The API's origin (the issuer) is http://127.0.0.1:<port>; the portal's http://localhost:<port>.
    cookie: () => ({ name: 'svc_session', domain: 'localhost', secure: false, httpOnly: true }),
  },
  {
    name: 'separate hosts',
    slug: 'hosts',
    cookie: () => ({ name: '__Host-svc_session', domain: NAMES.portal, secure: true, httpOnly: true }),
  },
])('MCP OAuth from the metadata, $name', ({ name, slug, cookie }) => {
  const deployment = () => deployments[name]!;

  it('the API and the portal are different origins, as configured', () => {
    const { stack } = deployment();
    expect(new URL(stack.apiUrl).origin).not.toBe(new URL(stack.portalUrl).origin);
  });

  it('the owner signed in through the banner’s link approves without signing in again', async () => {
    const { stack, fetch: baseFetch } = deployment();
    const { context, page, pageErrors } = await signInWithLink(browser, stack.demoSignInLink!);
    expect(await sessionCookies(context)).toEqual([cookie()]);
    const received = await claudeCallback(context);
    const { authorizationUrl, finish } = await startConnecting(stack, baseFetch);

    await page.goto(authorizationUrl.href);
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('Let an AI application read');
    // Handed from the API's origin to the portal's MCP consent page, every parameter as sent.
    expect(page.url()).toBe(`${stack.portalUrl}/oauth/authorize/mcp${authorizationUrl.search}`);
    expect(await page.evaluate(() => isSecureContext)).toBe(true);
    expect(await page.locator('.consent-facts').textContent()).toContain('claude.ai');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, `mcp-discovery-${slug}-consent-desktop`);
    await phoneShot(page.url(), `mcp-discovery-${slug}-consent`, 'Let an AI application read', context);

    const back = await approve(page, received);
    expect(back.get('iss')).toBe(new URL(stack.apiUrl).origin);
    await finish(back);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('an owner not yet signed in signs in by e-mailed link from the consent page and lands back on it', async () => {
    const { stack, fetch: baseFetch } = deployment();
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { pageErrors } = watchPage(page);
    const received = await claudeCallback(context);
    const { authorizationUrl, finish } = await startConnecting(stack, baseFetch);
    const consentUrl = `${stack.portalUrl}/oauth/authorize/mcp${authorizationUrl.search}`;

    await page.goto(authorizationUrl.href);
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('Sign in');
    expect(page.url()).toBe(consentUrl);
    expect(await page.locator('main').textContent()).toContain('An application is asking to connect');
    await screenshot(page, `mcp-discovery-${slug}-sign-in-desktop`);
    await phoneShot(authorizationUrl.href, `mcp-discovery-${slug}-sign-in`, 'Sign in');

    const since = mail.mails.length;
    await page.getByLabel('Work e-mail').fill(OWNER);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), WAIT).toContain('Check your inbox');
    const link = await mail.linkFor(OWNER, since);
    expect(link.startsWith(`${stack.portalUrl}/portal/sign-in/link#token=`)).toBe(true);
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('Let an AI application read');
    expect(page.url()).toBe(consentUrl);
    expect(await sessionCookies(context)).toEqual([cookie()]);
    await screenshot(page, `mcp-discovery-${slug}-signed-in-consent-desktop`);

    await finish(await approve(page, received));
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});
