import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openHostPage } from '../../../../e2e/support/host-page.ts';
import { startPortalStack } from '../../../../e2e/support/portal.ts';
import { launchChromium } from '../../../../e2e/support/stack.ts';
import type { RunningServers } from '../../../../server/main/servers.ts';
import { startWordPress, type WordPressSite, wordpressVersion } from './wordpress-site.ts';

const ROOT = fileURLToPath(new URL('../../../..', import.meta.url));
const SHOTS = join(ROOT, 'test-results', 'wordpress');
const WAIT = { timeout: 30_000 };
const OWNER = 'demo@svc.test';
/** Short enough to watch the plugin refresh inside the suite. */
const ACCESS_TTL_S = 20;

let stack: RunningServers;
let site: WordPressSite;
let browser: Browser;
let admin: BrowserContext;
let page: Page;
let dataDir: string;

async function shot(target: Page, name: string) {
  mkdirSync(SHOTS, { recursive: true });
  await target.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true });
}

/** The newest sign-in link in DATA_DIR/outbox (RFC 5322 files, quoted-printable bodies). */
function latestSignInLink(since: number): string | undefined {
  const outbox = join(dataDir, 'outbox');
  let files: string[] = [];
  try {
    files = readdirSync(outbox).map((f) => join(outbox, f));
  } catch {
    return undefined;
  }
  const fresh = files
    .filter((f) => statSync(f).mtimeMs >= since)
    .sort((a, b) => statSync(b).mtimeMs - statSync(a).mtimeMs);
  for (const file of fresh) {
    const text = readFileSync(file, 'utf8')
      .replace(/=\r?\n/g, '')
      .replace(/=3D/gi, '=');
    const link = /https?:\/\/[^\s"<>]+#token=svc_ml_[A-Za-z0-9]+/.exec(text)?.[0];
    if (link) return link;
  }
  return undefined;
}

/** The plugin's stored record, read through WordPress (the refresh token only as its sealed form). */
function storedTokens(): {
  issued_at: number;
  expires_at: number;
  refresh_sealed: string;
  scope: string;
  via: string;
} | null {
  const out = site.run(
    "wp_cache_flush(); $t = get_option('svc_tokens'); unset($t['access']); echo wp_json_encode($t ?: null);",
  );
  return JSON.parse(out.trim().split('\n').pop() ?? 'null');
}

const AXE = readFileSync(join(ROOT, 'node_modules', 'axe-core', 'axe.min.js'), 'utf8');

/** axe-core's WCAG 2.x A/AA rules on the plugin's own part of a WordPress screen. */
async function axeOn(target: Page, selector: string): Promise<string[]> {
  if (!(await target.evaluate('typeof window.axe !== "undefined"'))) await target.evaluate(AXE);
  return (await target.evaluate(
    `axe.run(${JSON.stringify(selector)}, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] } })
      .then(r => r.violations.map(v => v.id + ': ' + v.nodes.map(n => n.target.join(' ')).join(', ')))`,
  )) as string[];
}

async function portalJson<T>(path: string): Promise<T> {
  const res = await admin.request.get(`${stack.portalUrl}/v1/portal/${path}`);
  expect(res.status()).toBe(200);
  return (await res.json()) as T;
}

async function liveSites(): Promise<string[]> {
  const list = await portalJson<{ data: { activations?: { domain: { ascii: string } }[] }[] }>('licenses');
  return list.data.flatMap((l) => (l.activations ?? []).map((a) => a.domain.ascii));
}

async function connectThroughPortal(signIn: boolean) {
  await page.goto(`${site.url}/wp-admin/options-general.php?page=svc`);
  const since = Date.now() - 1000;
  await page.getByRole('button', { name: 'Connect to svc' }).click();
  await page.waitForURL((u) => u.pathname === '/oauth/authorize', WAIT);
  const asked = new URL(page.url());
  expect(asked.searchParams.get('scope')).toBe('site leads:read');
  expect(asked.searchParams.get('code_challenge_method')).toBe('S256');
  expect(asked.searchParams.get('site_domain')).toBe('127.0.0.1');
  if (signIn) {
    await page.getByLabel('Work e-mail').fill(OWNER);
    await page.getByRole('button', { name: 'Email me a sign-in link' }).click();
    let link: string | undefined;
    await expect.poll(() => (link = latestSignInLink(since)), WAIT).toBeTruthy();
    await page.goto(link!);
    await page.getByRole('button', { name: 'Continue' }).click();
  }
  await page.getByRole('button', { name: 'Approve' }).waitFor(WAIT);
  await shot(page, 'portal-consent');
  expect(await page.locator('main').textContent()).toContain('Read your leads');
  await page.getByRole('button', { name: 'Approve' }).click();
  await page.waitForURL(
    (u) => u.origin === site.url && u.searchParams.get('svc_notice') === 'connected',
    WAIT,
  );
}

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'svc-wp-stack-'));
  execFileSync('node', ['scripts/build-wordpress.mjs'], { cwd: ROOT, stdio: 'ignore' });
  [stack, browser] = await Promise.all([
    startPortalStack({ DATA_DIR: dataDir, ACCESS_TOKEN_TTL_SECONDS: String(ACCESS_TTL_S) }),
    launchChromium(),
  ]);
  site = await startWordPress({
    SVC_API_URL: stack.apiUrl,
    SVC_EMBED_URL: stack.embedUrl,
    SVC_PORTAL_URL: stack.portalUrl,
  });
  console.log(`WordPress ${wordpressVersion(site.root)} at ${site.url}; svc at ${stack.apiUrl}`);
  admin = await browser.newContext({ viewport: { width: 1280, height: 900 } });
  page = await admin.newPage();
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await site?.close();
  await stack?.close();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * Signs the admin in through wp-login.php. One CI run saw the first sign-in of a fresh site never
 * leave wp-login.php within 30 s (not reproduced since): a second try is made once, and a failure
 * names where the browser is and what the page says, so the next one can be understood.
 */
async function signInToWordPress() {
  for (let attempt = 1; ; attempt++) {
    await page.goto(`${site.url}/wp-login.php`);
    await page.locator('#user_login').fill(site.admin.user);
    await page.locator('#user_pass').fill(site.admin.password);
    await page.locator('#wp-submit').click();
    const landed = await page
      .waitForURL(/\/wp-admin\/?$/, { timeout: 15_000 })
      .then(() => true)
      .catch(() => false);
    if (landed) return;
    const error = (
      await page
        .locator('#login_error')
        .textContent()
        .catch(() => null)
    )?.trim();
    console.log(`WordPress sign-in attempt ${attempt} stayed at ${page.url()}${error ? `: ${error}` : ''}`);
    if (attempt === 2) throw new Error(`WordPress sign-in did not reach wp-admin (at ${page.url()})`);
  }
}

describe('the svc plugin in a real WordPress', () => {
  it('installs from the zip through the upload form and activates', async () => {
    await signInToWordPress();
    await page.goto(`${site.url}/wp-admin/plugin-install.php?tab=upload`);
    await page.locator('#pluginzip').setInputFiles(join(ROOT, 'dist', 'wordpress', 'svc.zip'));
    await page.locator('#install-plugin-submit').click();
    await page.getByText('Plugin installed successfully.').waitFor(WAIT);
    await page.getByRole('link', { name: 'Activate Plugin' }).click();
    await page.getByText('Plugin activated.').waitFor(WAIT);
  });

  it('passes its integration suite against wp-load.php', () => {
    const run = spawnSync(
      'phpunit',
      [
        '--do-not-cache-result',
        '--bootstrap',
        'plugins/wordpress/tests/integration/bootstrap.php',
        'plugins/wordpress/tests/integration',
      ],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, WP_ROOT: site.root, WP_HOST: new URL(site.url).host },
      },
    );
    expect(`${run.stdout}${run.stderr}`).toMatch(/OK \(\d+ tests/);
  });

  it('connects: Connect → portal sign-in by mailed link → consent → back in WordPress, status in words', async () => {
    await page.goto(`${site.url}/wp-admin/options-general.php?page=svc`);
    await page.getByRole('button', { name: 'Connect to svc' }).waitFor(WAIT);
    await shot(page, 'settings-before-connect');
    expect(await axeOn(page, '.svc-settings')).toEqual([]);
    // Keyboard: Tab reaches the Connect button.
    await page.locator('#svc-connect').focus();
    expect(await page.evaluate('document.activeElement.id')).toBe('svc-connect');
    await connectThroughPortal(true);
    const body = await page.locator('.svc-settings').textContent();
    expect(body).toContain('Connected.');
    expect(body).toContain('127.0.0.1 is connected through Connect');
    expect(body).toMatch(/Seats\s*\d+ of \d+ in use/);
    await shot(page, 'settings-connected');
    expect(await axeOn(page, '.svc-settings')).toEqual([]);
    const stored = storedTokens()!;
    expect(stored).toMatchObject({ scope: 'site leads:read', via: 'connect' });
    expect(stored.expires_at - stored.issued_at).toBeLessThanOrEqual(ACCESS_TTL_S);
    expect(site.run("echo get_option('svc_publishable_key');").trim()).toBe(stack.demo.publishableKey);
    expect(await liveSites()).toContain('127.0.0.1');
  });

  let pageUrl = '';
  it('inserts the block through the editor with a live preview, and publishes', async () => {
    await page.goto(`${site.url}/wp-admin/post-new.php?post_type=page`);
    // The editor is driven through its data stores (wp.data), as WordPress's own e2e utilities do.
    await page.waitForFunction(`window.wp?.data?.select('core/editor')?.getCurrentPostId?.()`, null, WAIT);
    await page.evaluate(`(() => {
      if (wp.data.select('core/edit-post').isFeatureActive('welcomeGuide'))
        wp.data.dispatch('core/edit-post').toggleFeature('welcomeGuide');
      wp.data.dispatch('core/editor').editPost({ title: 'Estate tax in New York' });
      const block = wp.blocks.createBlock('svc/calculator', { calculator: 'estate-tax', state: 'NY', accent: '#1f4e79' });
      wp.data.dispatch('core/block-editor').insertBlocks(block);
      wp.data.dispatch('core/block-editor').selectBlock(block.clientId);
    })()`);
    // The preview is the real widget: the loader mounts it inside the editor.
    await page.locator('.svc-calculator-preview iframe').waitFor(WAIT);
    await page.frameLocator('.svc-calculator-preview iframe').locator('#f-estateValue').waitFor(WAIT);
    await shot(page, 'block-in-editor');
    await page.evaluate(`(() => {
      wp.data.dispatch('core/editor').editPost({ status: 'publish' });
      return wp.data.dispatch('core/editor').savePost();
    })()`);
    const current = (field: string) =>
      page.evaluate(`wp.data.select('core/editor').getCurrentPost().${field}`) as Promise<string>;
    await expect.poll(() => current('status'), WAIT).toBe('publish');
    pageUrl = await current('link');
    expect(pageUrl.startsWith(site.url)).toBe(true);
  });

  let leadId = '';
  it('a visitor sees the widget ready, computes and leaves a lead; it shows in the dashboard and the portal', async () => {
    const visitor = await openHostPage(browser, pageUrl);
    await expect.poll(() => visitor.count('svc-ready'), WAIT).toBe(1);
    // The page as WordPress served it: one loader, async, with the key learned from the API.
    const html = await (await fetch(pageUrl)).text();
    expect(html.match(/\/loader\.js/g)).toHaveLength(1);
    expect(html).toContain(
      `<script async src="${stack.embedUrl}/loader.js" data-key="${stack.demo.publishableKey}"`,
    );
    const frame = visitor.page.frameLocator('.svc-calculator iframe');
    await frame.locator('#f-estateValue').fill('8000000');
    await frame.getByRole('button', { name: 'Calculate' }).click();
    await frame.locator('#lead-name').fill('Zoë Visitor');
    await frame.locator('#lead-email').fill('zoe@example.com');
    await frame.locator('#lead-consent').check();
    await frame.getByRole('button', { name: 'Send my details' }).click();
    await frame.locator('.lead.done').waitFor(WAIT);
    await visitor.page.context().close();
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 } });
    const phonePage = await phone.newPage();
    await phonePage.goto(pageUrl);
    await phonePage.frameLocator('.svc-calculator iframe').locator('#f-estateValue').waitFor(WAIT);
    await shot(phonePage, 'published-page-phone');
    await phone.close();

    await page.goto(`${site.url}/wp-admin/index.php`);
    const widget = page.locator('#svc_latest_leads');
    await expect.poll(() => widget.textContent(), WAIT).toContain('Zoë Visitor');
    expect(await widget.locator('.svc-test-badge').first().textContent()).toBe('Test');
    await page.evaluate('window.scrollTo(0, 0)');
    await shot(page, 'dashboard-leads');
    expect(await axeOn(page, '#svc_latest_leads')).toEqual([]);
    const href = (await widget.getByRole('link', { name: 'Zoë Visitor' }).getAttribute('href'))!;
    expect(href.startsWith(`${stack.portalUrl}/portal/leads/`)).toBe(true);
    leadId = decodeURIComponent(href.split('/').pop()!);
    const portalPage = await admin.newPage();
    await portalPage.goto(href);
    await expect.poll(() => portalPage.locator('main').textContent(), WAIT).toContain('Zoë Visitor');
    await portalPage.close();
  });

  it('refreshes an expired access token silently, also with two requests at once', async () => {
    const before = storedTokens()!;
    // The token's real lifetime runs out (ACCESS_TOKEN_TTL_SECONDS on the server).
    await expect
      .poll(() => Date.now() / 1000 > before.expires_at + 1, {
        timeout: (ACCESS_TTL_S + 5) * 1000,
        interval: 500,
      })
      .toBe(true);
    const [a, b] = [await admin.newPage(), await admin.newPage()];
    await Promise.all([a.goto(`${site.url}/wp-admin/index.php`), b.goto(`${site.url}/wp-admin/index.php`)]);
    for (const p of [a, b]) {
      expect(await p.locator('#svc_latest_leads').textContent()).toContain('Zoë Visitor');
      expect(await p.locator('.svc-reconnect').count()).toBe(0);
      await p.close();
    }
    const after = storedTokens()!;
    expect(after.refresh_sealed).not.toBe(before.refresh_sealed);
    expect(after.expires_at).toBeGreaterThan(before.expires_at);
    expect(leadId).not.toBe('');
  });

  it('keeps the access token only sealed, and refreshes in place of one an older version left in clear', async () => {
    // How many options hold the site's current access token in clear (the whole JWT).
    const clearCopies = () =>
      site
        .run(
          "global $wpdb; $a = svc_access_token(); echo $a ? (int) $wpdb->get_var($wpdb->prepare(\"SELECT COUNT(*) FROM {$wpdb->options} WHERE option_value LIKE %s\", '%' . $wpdb->esc_like($a) . '%')) : 'none';",
        )
        .trim()
        .split('\n')
        .pop();
    expect(clearCopies()).toBe('0');
    // The record as the plugin's older versions kept it: the live access token in clear.
    site.run(
      "wp_cache_flush(); $t = get_option('svc_tokens'); $t['access'] = svc_access_token(); unset($t['access_sealed']); update_option('svc_tokens', $t, false);",
    );
    const legacy = storedTokens()!;
    await page.goto(`${site.url}/wp-admin/index.php`);
    expect(await page.locator('#svc_latest_leads').textContent()).toContain('Zoë Visitor');
    const after = storedTokens()!;
    expect(after.refresh_sealed).not.toBe(legacy.refresh_sealed);
    expect(
      site
        .run(
          "wp_cache_flush(); echo array_key_exists('access', get_option('svc_tokens')) ? 'clear' : 'gone';",
        )
        .trim()
        .split('\n')
        .pop(),
    ).toBe('gone');
    expect(clearCopies()).toBe('0');
  });

  it('shows the reconnect notice once the connection is revoked in the portal', async () => {
    const portalPage = await admin.newPage();
    portalPage.on('dialog', (d) => d.accept());
    await portalPage.goto(`${stack.portalUrl}/portal/licenses`);
    const row = portalPage.getByRole('row', { name: /127\.0\.0\.1/ });
    await row.getByRole('button', { name: /Release/ }).click();
    await expect.poll(() => liveSites(), WAIT).not.toContain('127.0.0.1');
    await portalPage.close();
    // The dashboard's live call learns of the revocation (admin notices print before widgets, so
    // the notice is on the next screen).
    await page.goto(`${site.url}/wp-admin/index.php`);
    expect(await page.locator('#svc_latest_leads').count()).toBeLessThanOrEqual(1);
    await page.goto(`${site.url}/wp-admin/options-general.php?page=svc`);
    expect(await page.locator('.svc-reconnect').count()).toBe(1);
    expect(await page.getByRole('button', { name: 'Connect to svc' }).count()).toBe(1);
    await shot(page, 'reconnect-notice');
    expect(storedTokens()).toBeNull();
  });

  it('reconnects, and Disconnect revokes the tokens and frees the seat', async () => {
    await connectThroughPortal(false);
    expect(await liveSites()).toContain('127.0.0.1');
    const sealed = storedTokens()!.refresh_sealed;
    expect(sealed).toMatch(/^v1\./);
    await page.goto(`${site.url}/wp-admin/options-general.php?page=svc`);
    await page.getByRole('button', { name: 'Disconnect' }).click();
    await page.waitForURL((u) => u.searchParams.get('svc_notice') === 'disconnected', WAIT);
    expect(await liveSites()).not.toContain('127.0.0.1');
    expect(storedTokens()).toBeNull();
    expect(site.run("echo get_option('svc_publishable_key') === false ? 'gone' : 'kept';").trim()).toBe(
      'gone',
    );
    // The published page no longer loads a widget.
    const visitor = await openHostPage(browser, pageUrl);
    expect(await visitor.page.content()).not.toContain('/loader.js');
    await visitor.page.context().close();
  });

  it('activates with the secret key instead (the path for sites Connect cannot reach), and keeps no key', async () => {
    await page.goto(`${site.url}/wp-admin/options-general.php?page=svc`);
    await page.getByText('Use a secret license key instead').click();
    await page.getByLabel('Secret license key (SVC-…)').fill(stack.demo.publishableKey);
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.waitForURL((u) => u.searchParams.get('svc_notice') === 'key_publishable', WAIT);
    await page.getByText('Use a secret license key instead').click();
    await page.getByLabel('Secret license key (SVC-…)').fill(stack.demo.licenseKey);
    await page.getByRole('button', { name: 'Activate' }).click();
    await page.waitForURL((u) => u.searchParams.get('svc_notice') === 'activated', WAIT);
    expect(await page.locator('.svc-settings').textContent()).toContain(
      'connected through a secret license key',
    );
    const leak = site.run(
      `global $wpdb; echo (int) $wpdb->get_var($wpdb->prepare("SELECT COUNT(*) FROM {$wpdb->options} WHERE option_value LIKE %s", '%' . $wpdb->esc_like(${JSON.stringify(stack.demo.licenseKey)}) . '%'));`,
    );
    expect(leak.trim()).toBe('0');
    expect(storedTokens()).toMatchObject({ scope: 'site', via: 'key' });
    // A key activation reads no leads: the dashboard says where they are.
    await page.goto(`${site.url}/wp-admin/index.php`);
    expect(await page.locator('#svc_latest_leads').textContent()).toContain('cannot read leads');
    expect(await liveSites()).toContain('127.0.0.1');
  });

  it('refuses a callback whose state this admin session did not start', async () => {
    await page.goto(`${site.url}/wp-admin/options-general.php?page=svc&code=svc_ac_forged&state=forged`);
    await page.waitForURL((u) => u.searchParams.get('svc_notice') === 'bad_state', WAIT);
    expect(await page.locator('.svc-settings').textContent()).toContain(
      'connected through a secret license key',
    );
  });

  it('deleting the plugin revokes its tokens, frees the seat and removes its options', async () => {
    const out = site.run(
      "require_once ABSPATH . 'wp-admin/includes/plugin.php'; require_once ABSPATH . 'wp-admin/includes/file.php'; deactivate_plugins('svc/svc.php'); echo delete_plugins(array('svc/svc.php')) === true ? 'deleted' : 'failed';",
    );
    expect(out.trim().split('\n').pop()).toBe('deleted');
    expect(await liveSites()).not.toContain('127.0.0.1');
    const left = site.run(
      `global $wpdb; echo (int) $wpdb->get_var("SELECT COUNT(*) FROM {$wpdb->options} WHERE option_name LIKE 'svc\\_%' OR option_name LIKE '%svc\\_state%'");`,
    );
    expect(left.trim()).toBe('0');
  });

  it('left no PHP warning, notice or error from the plugin in debug.log', () => {
    let log = '';
    try {
      log = readFileSync(site.debugLog, 'utf8');
    } catch {
      // no log: nothing was logged
    }
    // WordPress 6.1's own libraries log PHP 8.2 deprecations; the plugin's lines are what count.
    const ours = log.split('\n').filter((line) => line.includes('/plugins/svc/'));
    expect(ours).toEqual([]);
  });
});
