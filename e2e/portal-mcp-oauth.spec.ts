import { createHash, randomBytes } from 'node:crypto';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ConnectedApp, McpConsentRequest } from '../portal/mcp-oauth-types.ts';
import type { RunningServers } from '../server/main/servers.ts';
import { type ContractState, serveMcpOAuthContract } from './support/mcp-oauth-contract.ts';
import {
  axeViolations,
  screenshot,
  signInWithLink,
  startConnectClient,
  startMailCapture,
  startPortalStack,
  WAIT,
  watchPage,
} from './support/portal.ts';
import { launchChromium } from './support/stack.ts';

/**
 * Issue 27 part B: the MCP consent page at /oauth/authorize (owner, viewer, an application that
 * only returns to localhost, a refused request, the sign-in detour) and Settings → Connected apps,
 * at 1280 and 390 px, axe-clean, Approve and Revoke driven by the keyboard.
 */
const OWNER = 'demo@svc.test';
let stack: RunningServers;
let browser: Browser;
let mail: Awaited<ReturnType<typeof startMailCapture>>;
let callback: Awaited<ReturnType<typeof startConnectClient>>;

/** As server/domain/oauth/mcp-resource.ts describes the MCP scopes: leads:read always, the rest optional. */
const SCOPES = [
  {
    scope: 'leads:read',
    description: 'Read your leads, calculator results and lead statistics',
    optional: false,
  },
];
const OPTIONAL_SCOPES = [
  ...SCOPES,
  {
    scope: 'leads:export',
    description: 'Download leads and results as CSV or JSON files, and calculation reports as PDF',
    optional: true,
  },
  {
    scope: 'leads:write',
    description: 'Change a lead’s status (for example mark it contacted)',
    optional: true,
  },
];

const CLAUDE: McpConsentRequest['client'] = {
  clientId: 'https://claude.ai/oauth/mcp-oauth-client-metadata',
  name: 'Claude',
  nameVerified: true,
  kind: 'metadata-document',
  documentHost: 'claude.ai',
  redirectUri: 'https://claude.ai/api/mcp/auth_callback',
  redirectHost: 'claude.ai',
  localhostOnly: false,
  localhostName: false,
};
const VSCODE: McpConsentRequest['client'] = {
  clientId: 'mcp_dyn_7Qm2c9XkV4tB8rLp',
  name: 'Visual Studio Code',
  nameVerified: false,
  kind: 'dynamic',
  documentHost: null,
  redirectUri: 'http://127.0.0.1:33418/',
  redirectHost: '127.0.0.1:33418',
  localhostOnly: true,
  localhostName: false,
};
/** A return address under `.localhost`: a name any program on the computer may use (issue 39, 9). */
const LOCAL_NAME: McpConsentRequest['client'] = {
  ...VSCODE,
  clientId: 'mcp_dyn_Lh3nM8qR2wX5vZ9a',
  name: 'Claude Desktop',
  redirectUri: 'http://claude-desktop.localhost:7777/cb',
  redirectHost: 'claude-desktop.localhost:7777',
  localhostName: true,
};

const APPS: ConnectedApp[] = [
  {
    grantId: 'grant_claude_1',
    clientId: CLAUDE.clientId,
    clientName: 'Claude',
    nameVerified: true,
    kind: 'metadata-document',
    redirectHost: 'claude.ai',
    approvedBy: { email: OWNER, name: 'Dana Whitfield' },
    approvedAt: '2026-11-20T15:04:00Z',
    lastUsedAt: new Date(Date.now() - 3 * 3600_000).toISOString(),
    scopes: ['leads:read'],
  },
  {
    grantId: 'grant_vscode_2',
    clientId: VSCODE.clientId,
    clientName: 'Visual Studio Code',
    nameVerified: false,
    kind: 'dynamic',
    redirectHost: '127.0.0.1:33418',
    approvedBy: { email: 'office@demo.svc.test', name: null },
    approvedAt: '2026-11-24T09:30:00Z',
    lastUsedAt: null,
    scopes: ['leads:read'],
  },
];

function contract(consent: ContractState['consent'], apps: ConnectedApp[] = []): ContractState {
  return {
    consent,
    apps: [...apps],
    decisions: [],
    revoked: [],
    redirectFor: (decision, params) => {
      const to = new URL(callback.redirectUri);
      if (decision === 'approve') to.searchParams.set('code', `svc_mc_${randomBytes(8).toString('hex')}`);
      else to.searchParams.set('error', 'access_denied');
      to.searchParams.set('state', params.state ?? '');
      to.searchParams.set('iss', stack.apiUrl);
      return to.toString();
    },
  };
}

const consentFor = (
  client: McpConsentRequest['client'],
  role: McpConsentRequest['role'] = 'owner',
): McpConsentRequest => ({
  client,
  firm: { name: 'Demo Estate Law LLP' },
  scopes: SCOPES,
  resource: `${stack.apiUrl}/v1/mcp`,
  canApprove: role !== 'viewer',
  role,
});

/** The URL an MCP client opens: every parameter of the MCP authorization request. */
function authorizeUrl(client: McpConsentRequest['client'], state = randomBytes(6).toString('hex')) {
  const url = new URL(`${stack.portalUrl}/oauth/authorize`);
  for (const [k, v] of Object.entries({
    response_type: 'code',
    client_id: client.clientId,
    redirect_uri: client.redirectUri,
    state,
    code_challenge: randomBytes(32).toString('base64url'),
    code_challenge_method: 'S256',
    scope: 'leads:read',
    resource: `${stack.apiUrl}/v1/mcp`,
  }))
    url.searchParams.set(k, v);
  return url.toString();
}

/** Presses Tab until the focused element's text starts with `label`; fails if it never does. */
async function tabTo(page: Page, label: string) {
  for (let i = 0; i < 40; i++) {
    await page.keyboard.press('Tab');
    const text = await page.evaluate(() => document.activeElement?.textContent?.trim() ?? '');
    if (text.startsWith(label)) return;
  }
  throw new Error(`Tab never reached “${label}”`);
}

/** The same page at 390 px in a copy of the signed-in context (with the same stand-in routes). */
async function phoneShot(
  from: BrowserContext,
  url: string,
  name: string,
  state: ContractState,
  ready: string,
) {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    storageState: await from.storageState(),
  });
  await serveMcpOAuthContract(context, state);
  const page = await context.newPage();
  await page.goto(url);
  await page.locator(ready).first().waitFor(WAIT);
  expect(await axeViolations(page)).toEqual([]);
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll('body *')]
      .filter(
        (e) => !e.closest('.nav, .table-wrap, .code') && e.getBoundingClientRect().right > innerWidth + 1,
      )
      .map((e) => `${e.tagName.toLowerCase()}.${e.className}`),
  );
  expect(wide).toEqual([]);
  await screenshot(page, `${name}-phone`);
  await context.close();
}

async function signedIn(link: string, state: ContractState) {
  const session = await signInWithLink(browser, link);
  await serveMcpOAuthContract(session.context, state);
  return session;
}

async function mintLink(email: string, role: 'owner' | 'admin' | 'viewer'): Promise<string> {
  const res = await fetch(`${stack.apiUrl}/admin/v1/users/invite`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify({ accountId: stack.demoAccountId, email, role }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { link: string }).link;
}

beforeAll(async () => {
  mail = await startMailCapture();
  callback = await startConnectClient();
  [stack, browser] = await Promise.all([startPortalStack({ SMTP_URL: mail.url }), launchChromium()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await mail?.close();
  await callback?.close();
});

describe('MCP consent', () => {
  it('an owner sees the application, its addresses, the firm and the read-only access, and approves by keyboard', async () => {
    const state = contract(consentFor(CLAUDE));
    const { context, page, pageErrors } = await signedIn(await mintLink(OWNER, 'owner'), state);
    const url = authorizeUrl(CLAUDE, 'st-claude-1');
    await page.goto(url);
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('Demo Estate Law');
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('Claude');
    expect(text).toContain('claude.ai');
    expect(text).toContain('Read your leads, calculator results and lead statistics');
    expect(text).toMatch(/will not be able to.*See or change billing/);
    expect(text).not.toContain('unverified');
    expect(await page.getByRole('note').count()).toBe(0);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-consent-owner-desktop');
    await phoneShot(context, url, 'mcp-consent-owner', state, 'button:has-text("Approve")');

    await tabTo(page, 'Approve');
    await page.keyboard.press('Enter');
    await expect.poll(() => callback.received.length, WAIT).toBe(1);
    const back = callback.received[0]!;
    expect(back.get('state')).toBe('st-claude-1');
    expect(back.get('code')).toMatch(/^svc_mc_/);
    // The page posted the request's own parameters back, unchanged, with the session's CSRF token.
    const posted = state.decisions[0]!;
    expect(posted.decision).toBe('approve');
    expect(posted.params).toEqual(Object.fromEntries(new URL(url).searchParams));
    expect(posted.csrf).toMatch(/.{16,}/);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('an application asking for more shows each optional scope unticked; the owner ticks one by keyboard (issue 43)', async () => {
    const state = contract({ ...consentFor(CLAUDE), scopes: OPTIONAL_SCOPES });
    const { context, page, pageErrors } = await signedIn(await mintLink(OWNER, 'owner'), state);
    const url = authorizeUrl(CLAUDE, 'st-claude-optional');
    await page.goto(url);
    const optional = page.getByTestId('mcp-optional-scopes');
    await optional.waitFor(WAIT);
    const boxes = optional.getByRole('checkbox');
    expect(await boxes.count()).toBe(2);
    for (const box of await boxes.all()) expect(await box.isChecked()).toBe(false);
    expect(await page.getByTestId('mcp-scopes').textContent()).toContain('Read your leads');
    expect(await optional.textContent()).toContain('Download leads and results');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-consent-optional-scopes-desktop');
    await phoneShot(
      context,
      url,
      'mcp-consent-optional-scopes',
      state,
      '[data-testid="mcp-optional-scopes"]',
    );

    await optional.getByRole('checkbox', { name: /Download leads/ }).focus();
    await page.keyboard.press('Space');
    expect(await optional.getByRole('checkbox', { name: /Download leads/ }).isChecked()).toBe(true);
    await screenshot(page, 'mcp-consent-optional-scopes-ticked-desktop');
    await tabTo(page, 'Approve');
    await page.keyboard.press('Enter');
    await expect.poll(() => state.decisions.length, WAIT).toBe(1);
    expect(state.decisions[0]).toMatchObject({ decision: 'approve', approvedScopes: ['leads:export'] });
    expect(state.decisions[0]!.params).toEqual(Object.fromEntries(new URL(url).searchParams));
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('an unverified name that only returns to localhost is marked and warned about; Deny sends access_denied', async () => {
    const state = contract(consentFor(VSCODE));
    const { context, page, pageErrors } = await signedIn(await mintLink(OWNER, 'owner'), state);
    const url = authorizeUrl(VSCODE, 'st-vscode');
    await page.goto(url);
    await expect.poll(() => page.getByRole('note').count(), WAIT).toBe(1);
    expect(await page.locator('.consent-facts').textContent()).toContain('unverified name');
    expect(await page.locator('.consent-facts').textContent()).toContain(VSCODE.clientId);
    expect(await page.getByRole('note').textContent()).toContain('127.0.0.1:33418');
    // A loopback address: where the answer goes, and the advice; no paragraph about a claimed name.
    expect(await page.getByRole('note').locator('p').count()).toBe(2);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-consent-localhost-desktop');
    await phoneShot(context, url, 'mcp-consent-localhost', state, '[role="note"]');

    const before = callback.received.length;
    await page.getByRole('button', { name: 'Deny' }).click();
    await expect.poll(() => callback.received.length, WAIT).toBe(before + 1);
    expect(callback.received.at(-1)!.get('error')).toBe('access_denied');
    expect(callback.received.at(-1)!.get('state')).toBe('st-vscode');
    expect(state.decisions.map((d) => d.decision)).toEqual(['deny']);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('a *.localhost return name is not presented as the application: the note says any program may use it', async () => {
    const state = contract(consentFor(LOCAL_NAME));
    const { context, page, pageErrors } = await signedIn(await mintLink(OWNER, 'owner'), state);
    await page.goto(authorizeUrl(LOCAL_NAME, 'st-local-name'));
    await expect.poll(() => page.getByRole('note').count(), WAIT).toBe(1);
    expect(await page.getByRole('note').textContent()).toContain('claude-desktop.localhost:7777');
    expect(await page.getByRole('note').locator('p').count()).toBe(3);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-consent-localhost-name-desktop');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('a viewer sees why they cannot approve and no Approve button', async () => {
    const state = contract(consentFor(CLAUDE, 'viewer'));
    const { context, page } = await signedIn(await mintLink('viewer-mcp@demo.svc.test', 'viewer'), state);
    const url = authorizeUrl(CLAUDE);
    await page.goto(url);
    await expect.poll(() => page.getByTestId('viewer-note').count(), WAIT).toBe(1);
    expect(await page.getByTestId('viewer-note').textContent()).toContain(
      'Only an owner or admin can approve',
    );
    expect(await page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await page.getByRole('button', { name: 'Deny and go back' }).count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-consent-viewer-desktop');
    await phoneShot(context, url, 'mcp-consent-viewer', state, '[data-testid="viewer-note"]');
    await context.close();
  });

  it('a refused request shows the error and its details and redirects nowhere', async () => {
    const state = contract({
      error: {
        code: 'INVALID_REQUEST',
        message: 'The authorization request is not valid.',
        status: 400,
        details: [
          { path: 'redirect_uri', message: 'is not one of the redirect URIs this client registered' },
        ],
      },
    });
    const { context, page } = await signedIn(await mintLink(OWNER, 'owner'), state);
    await page.goto(authorizeUrl({ ...CLAUDE, redirectUri: 'https://evil.example/cb' }));
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('cannot be used');
    expect(await page.getByRole('alert').textContent()).toContain('not valid');
    expect(await page.locator('main').textContent()).toContain('redirect_uri');
    expect(await page.getByRole('button').count()).toBe(0);
    expect(new URL(page.url()).origin).toBe(stack.portalUrl);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-consent-error-desktop');
    await context.close();
  });

  it('a refused request whose return address is the client’s offers to go back with the error, on a click', async () => {
    const back = new URL(callback.redirectUri);
    back.searchParams.set('error', 'invalid_scope');
    back.searchParams.set('state', 'st-scope');
    const state = contract({
      error: {
        code: 'INVALID_REQUEST',
        message: 'The application asked for access svc does not offer.',
        status: 400,
        details: [{ path: 'scope', message: 'unknown scope leads:write', redirectTo: back.toString() }],
      },
    });
    const { context, page } = await signedIn(await mintLink(OWNER, 'owner'), state);
    const before = callback.received.length;
    await page.goto(authorizeUrl(CLAUDE, 'st-scope'));
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('cannot be used');
    // Nothing happens by itself: the page stays on the portal until the person chooses to return.
    expect(new URL(page.url()).origin).toBe(stack.portalUrl);
    expect(callback.received.length).toBe(before);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-consent-error-return-desktop');
    await page.getByRole('button', { name: 'Return to the application' }).click();
    await expect.poll(() => callback.received.length, WAIT).toBe(before + 1);
    expect(callback.received.at(-1)!.get('error')).toBe('invalid_scope');
    expect(callback.received.at(-1)!.get('state')).toBe('st-scope');
    await context.close();
  });

  it('an application that gave no name is called unnamed and marked unverified', async () => {
    const state = contract(consentFor({ ...VSCODE, name: null }));
    const { context, page } = await signedIn(await mintLink(OWNER, 'owner'), state);
    await page.goto(authorizeUrl(VSCODE));
    await expect.poll(() => page.locator('.consent-facts').count(), WAIT).toBe(1);
    const facts = (await page.locator('.consent-facts').textContent()) ?? '';
    expect(facts).toContain('An unnamed application');
    expect(facts).toContain('unverified name');
    await context.close();
  });

  it('a signed-out visitor signs in by e-mail link and lands back on the MCP consent', async () => {
    const state = contract(consentFor(CLAUDE));
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    await serveMcpOAuthContract(context, state);
    const page = await context.newPage();
    const { pageErrors } = watchPage(page);
    const url = authorizeUrl(CLAUDE, 'st-detour');
    await page.goto(url);
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('Sign in');
    expect(await page.locator('main').textContent()).toContain('An application is asking to connect');
    await screenshot(page, 'mcp-sign-in-desktop');
    const since = mail.mails.length;
    await page.getByLabel('Work e-mail').fill(OWNER);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await page.goto(await mail.linkFor(OWNER, since));
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.locator('h1').textContent(), WAIT).toContain('Let an AI application read');
    // The server sent the MCP request to its consent page's own path; the sign-in returned there.
    expect(page.url()).toBe(`${stack.portalUrl}/oauth/authorize/mcp${new URL(url).search}`);
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

describe('Settings → Connected apps', () => {
  it('lists each grant with who approved it and when; Revoke asks first and works by keyboard', async () => {
    const state = contract(consentFor(CLAUDE), APPS);
    const { context, page, pageErrors } = await signedIn(await mintLink(OWNER, 'owner'), state);
    await page.getByRole('link', { name: 'Connected apps' }).click();
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBe(2);
    const rows = page.locator('tbody tr');
    expect(await rows.nth(0).textContent()).toMatch(/Claude.*claude\.ai.*Dana Whitfield.*3 hours ago/);
    expect(await rows.nth(1).textContent()).toContain('unverified name');
    expect(await rows.nth(1).textContent()).toContain('never');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'connected-apps-desktop');
    await phoneShot(context, page.url(), 'connected-apps', state, 'tbody tr');

    // Escape cancels: nothing is revoked.
    await tabTo(page, 'Revoke Claude');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('dialog[open]').count(), WAIT).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'connected-apps-revoke-dialog-desktop');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('dialog[open]').count(), WAIT).toBe(0);
    expect(state.revoked).toEqual([]);
    // Focus returns to the button that opened the dialog; Enter opens it again; Tab reaches the confirm.
    expect(await page.evaluate(() => document.activeElement?.textContent?.trim())).toBe('Revoke Claude');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('dialog[open]').count(), WAIT).toBe(1);
    await tabTo(page, 'Revoke access');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBe(1);
    expect(state.revoked).toEqual(['grant_claude_1']);
    expect(await page.getByRole('status').textContent()).toContain('Claude can no longer read');
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('with nothing connected, says how to connect an assistant', async () => {
    const state = contract(consentFor(CLAUDE), []);
    const { context, page } = await signedIn(await mintLink(OWNER, 'owner'), state);
    await page.goto(`${stack.portalUrl}/portal/settings/connected-apps`);
    await expect.poll(() => page.getByTestId('connected-apps-empty').count(), WAIT).toBe(1);
    expect(await page.getByTestId('connected-apps-empty').textContent()).toContain(`${stack.apiUrl}/v1/mcp`);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'connected-apps-empty-desktop');
    await phoneShot(
      context,
      page.url(),
      'connected-apps-empty',
      state,
      '[data-testid="connected-apps-empty"]',
    );
    await context.close();
  });

  it('a viewer sees the list without Revoke', async () => {
    const state = contract(consentFor(CLAUDE, 'viewer'), APPS);
    const { context, page } = await signedIn(await mintLink('viewer-mcp@demo.svc.test', 'viewer'), state);
    await page.goto(`${stack.portalUrl}/portal/settings/connected-apps`);
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBe(2);
    expect(await page.getByRole('button', { name: /Revoke/ }).count()).toBe(0);
    expect(await page.locator('main').textContent()).toContain('Viewers can see connected apps');
    await context.close();
  });
});

/**
 * The same screens against part A's real OAuth server: a client registered by DCR with a loopback
 * redirect, consent approved by keyboard, the code exchanged for an MCP token that works on
 * /v1/mcp, the grant listed in Connected apps, revoked by keyboard, and the token refused after.
 */
describe('against the real OAuth server', () => {
  const register = async (name: string) => {
    const res = await fetch(`${stack.apiUrl}/oauth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_name: name,
        redirect_uris: [callback.redirectUri],
        grant_types: ['authorization_code', 'refresh_token'],
        response_types: ['code'],
        token_endpoint_auth_method: 'none',
      }),
    });
    expect(res.status).toBe(201);
    return ((await res.json()) as { client_id: string }).client_id;
  };
  const request = (clientId: string, state: string, withResource = true) => {
    const verifier = randomBytes(32).toString('base64url');
    const url = new URL(`${stack.portalUrl}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: clientId,
      redirect_uri: callback.redirectUri,
      state,
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      code_challenge_method: 'S256',
      scope: 'leads:read',
    }))
      url.searchParams.set(k, v);
    if (withResource) url.searchParams.set('resource', `${stack.apiUrl}/v1/mcp`);
    return { url: url.toString(), verifier };
  };
  const callTool = (token: string) =>
    fetch(`${stack.apiUrl}/v1/mcp`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-06-18',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} }),
    });

  it('DCR client: consent approved by keyboard, token works, Connected apps revokes it by keyboard', async () => {
    const clientId = await register('Assistant on Dana’s laptop');
    const owner = await signInWithLink(browser, await mintLink(OWNER, 'owner'));
    const { page, context, pageErrors } = owner;
    const { url, verifier } = request(clientId, 'st-real-1');
    await page.goto(url);
    await expect.poll(() => page.locator('.consent-facts').count(), WAIT).toBe(1);
    const facts = (await page.locator('.consent-facts').textContent()) ?? '';
    expect(facts).toContain('Assistant on Dana’s laptop');
    expect(facts).toContain('unverified name');
    expect(facts).toContain(clientId);
    expect(await page.getByRole('note').count()).toBe(1);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'mcp-consent-real-desktop');

    const before = callback.received.length;
    await tabTo(page, 'Approve');
    await page.keyboard.press('Enter');
    await expect.poll(() => callback.received.length, WAIT).toBe(before + 1);
    const back = callback.received.at(-1)!;
    expect(back.get('state')).toBe('st-real-1');
    const token = await fetch(`${stack.apiUrl}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        grant_type: 'authorization_code',
        code: back.get('code')!,
        redirect_uri: callback.redirectUri,
        client_id: clientId,
        code_verifier: verifier,
        resource: `${stack.apiUrl}/v1/mcp`,
      }),
    });
    expect(token.status).toBe(200);
    const { access_token } = (await token.json()) as { access_token: string };
    expect((await callTool(access_token)).status).toBe(200);

    await page.goto(`${stack.portalUrl}/portal/settings/connected-apps`);
    await expect.poll(() => page.locator('tbody tr').count(), WAIT).toBe(1);
    const row = (await page.locator('tbody tr').textContent()) ?? '';
    expect(row).toContain('Assistant on Dana’s laptop');
    expect(row).toContain('unverified name');
    expect(row).toContain(OWNER);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'connected-apps-real-desktop');
    await tabTo(page, 'Revoke Assistant');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.locator('dialog[open]').count(), WAIT).toBe(1);
    await tabTo(page, 'Revoke access');
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByTestId('connected-apps-empty').count(), WAIT).toBe(1);
    // The revocation takes effect on the token's next call.
    expect((await callTool(access_token)).status).toBe(401);
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('a viewer gets the real consent without Approve (a request without resource is the MCP flow too)', async () => {
    const clientId = await register('Viewer’s assistant');
    const viewer = await signInWithLink(browser, await mintLink('viewer-real@demo.svc.test', 'viewer'));
    await viewer.page.goto(request(clientId, 'st-real-viewer', false).url);
    await expect.poll(() => viewer.page.getByTestId('viewer-note').count(), WAIT).toBe(1);
    expect(await viewer.page.getByRole('button', { name: 'Approve' }).count()).toBe(0);
    expect(await axeViolations(viewer.page)).toEqual([]);
    await viewer.context.close();
  });
});
