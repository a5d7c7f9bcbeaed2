import { createHash, randomBytes } from 'node:crypto';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningServers } from '../server/main/servers.ts';
import {
  axeViolations,
  newPhoneContext,
  screenshot,
  signInWithLink,
  startConnectClient,
  startMailCapture,
  startPortalStack,
  WAIT,
  watchPage,
} from './support/portal.ts';
import { launchChromium } from './support/stack.ts';

const ADMIN = 'demo@svc.test';
let stack: RunningServers;
let browser: Browser;
let mail: Awaited<ReturnType<typeof startMailCapture>>;

beforeAll(async () => {
  mail = await startMailCapture();
  [stack, browser] = await Promise.all([startPortalStack({ SMTP_URL: mail.url }), launchChromium()]);
});
afterAll(async () => {
  await browser?.close();
  await stack?.close();
  await mail?.close();
});

describe('portal sign-in', () => {
  it('e-mails a single-use link over SMTP; the link signs in once', async () => {
    expect(new URL(stack.portalUrl).hostname).toBe('localhost');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const page = await context.newPage();
    const { pageErrors } = watchPage(page);
    await page.goto(`${stack.portalUrl}/portal/`);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toContain('Sign in');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'sign-in-desktop');
    const since = mail.mails.length;
    await page.getByLabel('Work e-mail').fill(ADMIN);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), WAIT).toContain('Check your inbox');

    const link = await mail.linkFor(ADMIN, since);
    expect(link.startsWith(`${stack.portalUrl}/portal/sign-in/link#token=svc_ml_`)).toBe(true);
    const first = await signInWithLink(browser, link);
    expect(await first.page.getByRole('heading', { level: 1 }).textContent()).toBe('Overview');
    expect(first.pageErrors).toEqual([]);

    // The same link a second time: refused, with a way to ask for a new one.
    const again = await browser.newContext();
    const page2 = await again.newPage();
    await page2.goto(link);
    await screenshot(page2, 'link-desktop');
    await page2.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page2.getByRole('alert').textContent(), WAIT).toContain('not valid');
    expect(pageErrors).toEqual([]);

    // An unknown address gets the same answer and no mail (no account enumeration).
    const before = mail.mails.length;
    const res = await fetch(`${stack.portalUrl}/v1/portal/auth/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: stack.portalUrl },
      body: JSON.stringify({ email: 'nobody@example.com' }),
    });
    expect(res.status).toBe(202);
    expect(mail.mails.length).toBe(before);
    await Promise.all([context.close(), first.context.close(), again.close()]);
  });

  it('adds a passkey with a virtual authenticator and signs in with it', async () => {
    const { context, page, pageErrors } = await signInWithLink(browser, stack.demoSignInLink!);
    const cdp = await context.newCDPSession(page);
    await cdp.send('WebAuthn.enable');
    const { authenticatorId } = await cdp.send('WebAuthn.addVirtualAuthenticator', {
      options: {
        protocol: 'ctap2',
        transport: 'internal',
        hasResidentKey: true,
        hasUserVerification: true,
        isUserVerified: true,
        automaticPresenceSimulation: true,
      },
    });
    await page.getByRole('link', { name: 'Sign-in & security' }).click();
    await page.getByLabel('Name of this device').fill('Test laptop');
    await page.getByRole('button', { name: 'Add a passkey' }).click();
    await expect.poll(() => page.locator('#passkeys').textContent(), WAIT).toContain('Test laptop');
    const { credentials } = await cdp.send('WebAuthn.getCredentials', { authenticatorId });
    expect(credentials).toHaveLength(1);
    expect(credentials[0]!.isResidentCredential).toBe(true);
    await screenshot(page, 'security-desktop');

    await page.getByRole('button', { name: 'Sign out', exact: true }).first().click();
    await expect
      .poll(() => page.getByRole('button', { name: 'Sign in with a passkey' }).count(), WAIT)
      .toBe(1);
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => page.locator('.sidebar').count(), WAIT).toBe(1);
    await page.getByRole('link', { name: 'Activity' }).click();
    await expect
      .poll(() => page.locator('.timeline').textContent(), WAIT)
      .toContain('Signed in with a passkey');
    expect(pageErrors).toEqual([]);
    await context.close();
  });
});

describe('invitations', () => {
  it('an invitation is only an offer until the invitee accepts it on the invitation page', async () => {
    const owner = await signInWithLink(browser, await mintLink());
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal/settings/members`);
    const newcomer = 'newcomer@firm.example';
    const since = mail.mails.length;
    await page.getByLabel('E-mail').fill(newcomer);
    await page.getByRole('button', { name: 'Send invite' }).click();
    await expect.poll(() => page.getByRole('status').textContent(), WAIT).toContain('Invitation sent');
    await expect.poll(() => page.locator('#invitations').textContent(), WAIT).toContain(newcomer);
    expect(await page.locator('#people').textContent()).not.toContain(newcomer);
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'members-invited-desktop');

    const link = await mail.linkFor(newcomer, since);
    expect(link).toContain('/portal/invitation#token=svc_inv_');
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const invitee = await context.newPage();
    const { pageErrors } = watchPage(invitee);
    await invitee.goto(link);
    await expect
      .poll(() => invitee.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toContain('Join Demo Estate Law LLP');
    expect(await axeViolations(invitee)).toEqual([]);
    await screenshot(invitee, 'invitation-desktop');
    const phone = await newPhoneContext(browser, context);
    await phone.goto(link);
    await expect.poll(() => phone.getByRole('button', { name: 'Decline' }).count(), WAIT).toBe(1);
    expect(await axeViolations(phone)).toEqual([]);
    await screenshot(phone, 'invitation-phone');
    await phone.context().close();
    await invitee.getByRole('button', { name: 'Accept and sign in' }).click();
    await expect.poll(() => invitee.getByRole('heading', { level: 1 }).textContent(), WAIT).toBe('Overview');
    await page.reload();
    await expect.poll(() => page.locator('#people').textContent(), WAIT).toContain(newcomer);
    expect(pageErrors).toEqual([]);
    await Promise.all([context.close(), owner.context.close()]);
  });
});

describe('Connect consent', () => {
  it('approves: the client gets a single-use code and state, and exchanges it with its verifier', async () => {
    const client = await startConnectClient();
    const link = await mintLink();
    const { context, page, pageErrors } = await signInWithLink(browser, link);
    const verifier = randomBytes(32).toString('base64url');
    const challenge = createHash('sha256').update(verifier).digest('base64url');
    const state = randomBytes(8).toString('hex');
    const authorize = new URL(`${stack.portalUrl}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: 'svc for WordPress',
      redirect_uri: client.redirectUri,
      state,
      code_challenge: challenge,
      code_challenge_method: 'S256',
      site_domain: 'localhost',
    }))
      authorize.searchParams.set(k, v);

    await page.goto(authorize.toString());
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toContain('svc for WordPress');
    expect(await page.locator('.facts').textContent()).toContain('localhost');
    // Loopback keeps lead access, with a warning that says so.
    expect(await page.locator('main').textContent()).toContain('Read and update your leads');
    expect(await page.getByRole('note').textContent()).toContain('your own computer');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'connect-desktop');
    const phone = await newPhoneContext(browser, context);
    await phone.goto(authorize.toString());
    await expect.poll(() => phone.getByRole('button', { name: 'Approve' }).count(), WAIT).toBe(1);
    await screenshot(phone, 'connect-phone');
    await phone.context().close();

    await page.getByRole('button', { name: 'Approve' }).click();
    // The browser lands on the callback before the next navigation: the client's server can have
    // the request while the page is still loading it, and a goto then is interrupted by it.
    await page.waitForURL((url) => url.searchParams.has('code'));
    await expect.poll(() => client.received.length, WAIT).toBe(1);
    const back = client.received[0]!;
    expect(back.get('state')).toBe(state);
    const code = back.get('code')!;
    expect(code).toMatch(/^svc_ac_/);

    const exchange = (codeVerifier: string, redirectUri = client.redirectUri) =>
      fetch(`${stack.apiUrl}/v1/api/licenses/exchange`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ code, codeVerifier, redirectUri, siteDomain: 'localhost' }),
      });
    const tokens = await exchange(verifier);
    expect(tokens.status).toBe(200);
    expect(((await tokens.json()) as { scope: string }).scope).toBe('site admin');
    const reused = await exchange(verifier);
    expect(reused.status).toBe(400);
    expect(((await reused.json()) as { error: { code: string } }).error.code).toBe('INVALID_GRANT');

    // Denial: back to the client with error=access_denied and the state.
    await page.goto(authorize.toString());
    await page.getByRole('button', { name: 'Deny' }).click();
    // The browser lands on the callback before the next navigation (else goto is interrupted).
    await page.waitForURL((url) => url.searchParams.get('error') === 'access_denied');
    await expect.poll(() => client.received.length, WAIT).toBe(2);
    expect(client.received[1]!.get('error')).toBe('access_denied');
    expect(client.received[1]!.get('state')).toBe(state);
    expect(client.received[1]!.get('code')).toBeNull();

    // A redirect_uri off the site is shown as an error and never followed.
    const evil = new URL(authorize);
    evil.searchParams.set('redirect_uri', 'https://evil.example/cb');
    await page.goto(evil.toString());
    await expect
      .poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT)
      .toContain('cannot be used');
    expect(new URL(page.url()).origin).toBe(stack.portalUrl);
    await screenshot(page, 'connect-error-desktop');
    expect(pageErrors).toEqual([]);
    await context.close();
    await client.close();
  });

  it('a private-network site is told plainly it gets calculators and status only', async () => {
    const link = await mintLink();
    const { context, page, pageErrors } = await signInWithLink(browser, link);
    const authorize = new URL(`${stack.portalUrl}/oauth/authorize`);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: 'svc for WordPress',
      redirect_uri: 'http://192.168.1.50/wp-admin/admin.php?page=svc',
      code_challenge: 'a'.repeat(43),
      code_challenge_method: 'S256',
      site_domain: '192.168.1.50',
    }))
      authorize.searchParams.set(k, v);
    await page.goto(authorize.toString());
    await expect.poll(() => page.getByRole('button', { name: 'Approve' }).count(), WAIT).toBe(1);
    const text = (await page.locator('main').textContent()) ?? '';
    expect(text).toContain('This site will be able to');
    expect(text).toContain('Show your calculators on this site');
    expect(text).toMatch(/will not be able to.*Read your leads.*Change your leads.*Manage billing/);
    expect(await page.getByRole('note').textContent()).toContain('never your leads');
    expect(await axeViolations(page)).toEqual([]);
    await screenshot(page, 'connect-private-desktop');
    const phone = await newPhoneContext(browser, context);
    await phone.goto(authorize.toString());
    await expect.poll(() => phone.getByRole('button', { name: 'Approve' }).count(), WAIT).toBe(1);
    expect(await axeViolations(phone)).toEqual([]);
    await screenshot(phone, 'connect-private-phone');
    await phone.context().close();
    expect(pageErrors).toEqual([]);
    await context.close();
  });

  it('asks a signed-out visitor to sign in first, then returns to the request', async () => {
    const context = await browser.newContext();
    const page = await context.newPage();
    const url = `${stack.portalUrl}/oauth/authorize?response_type=code&client_id=Test&redirect_uri=${encodeURIComponent('http://localhost:1/cb')}&code_challenge=${'a'.repeat(43)}&code_challenge_method=S256&site_domain=localhost`;
    await page.goto(url);
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toContain('Sign in');
    const since = mail.mails.length;
    await page.getByLabel('Work e-mail').fill(ADMIN);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    const link = await mail.linkFor(ADMIN, since);
    await page.goto(link);
    await page.getByRole('button', { name: 'Continue' }).click();
    await expect.poll(() => page.getByRole('heading', { level: 1 }).textContent(), WAIT).toContain('Connect');
    expect(new URL(page.url()).pathname).toBe('/oauth/authorize');
    await context.close();
  });
});

/** A fresh sign-in link for the demo owner through the admin API (what `svc user invite` does). */
async function mintLink(): Promise<string> {
  const res = await fetch(`${stack.apiUrl}/admin/v1/users/invite`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${stack.adminToken}` },
    body: JSON.stringify({ accountId: stack.demoAccountId, email: ADMIN, role: 'owner' }),
  });
  expect(res.status).toBe(200);
  return ((await res.json()) as { link: string }).link;
}
