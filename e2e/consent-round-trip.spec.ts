import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Browser, Frame } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import spanishEstateTax from '../calculators/i18n/es/estate-tax.ts';
import { COMMON_TEXTS, ESTATE_TAX_TEXTS } from '../calculators/texts.ts';
import type { RunningServers } from '../server/main/servers.ts';
import { readPdf, renderPdfPage } from '../server/test-support/pdf-reader.ts';
import { startReceiver } from '../server/test-support/webhook-receiver.ts';
import { axeViolations as frameAxe, openCustomPage, pageKey } from './support/custom-page.ts';
import { checkPortalPage, signInWithLink, startPortalStack, WAIT } from './support/portal.ts';
import { LOCAL_NETWORK_ARGS, launchChromium } from './support/stack.ts';

/**
 * Issue 20, the consent round trip: the firm sets its consent text in the portal → the widget on
 * the firm's site shows exactly that text → the lead stores that version → the same text, version
 * and SHA-256 in the portal's lead detail, REST, the webhook payload and MCP. Then the portal's
 * test-lead notices (Overview and Leads) for a firm whose only leads came from a development host.
 */
const SHOTS = fileURLToPath(new URL('./screenshots/widget/', import.meta.url));
/** A production site of the demo firm (added to its license): its leads are live, not test data. */
const SITE = 'consent-firm.example';
const HOST = `https://${SITE}`;
/** A development host: its leads are test data. */
const DEV_HOST = 'http://intake.localhost:5173';
const TEXT =
  'I agree that Demo Estate Law may call me at the number I gave or e-mail me about my estimate. (Round-trip 7)';

let stack: RunningServers;
let browser: Browser;
let receiver: Awaited<ReturnType<typeof startReceiver>>;
let owner: Awaited<ReturnType<typeof signInWithLink>>;

const admin = (method: string, path: string, body?: unknown) =>
  fetch(`${stack.apiUrl}${path}`, {
    method,
    headers: { authorization: `Bearer ${stack.adminToken}`, 'content-type': 'application/json' },
    ...(body ? { body: JSON.stringify(body) } : {}),
  });
const rest = async (path: string) => {
  const res = await fetch(`${stack.apiUrl}/v1/api/${path}`, {
    headers: { authorization: `Bearer ${stack.demo.apiKey}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as Record<string, unknown>;
};
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

beforeAll(async () => {
  mkdirSync(SHOTS, { recursive: true });
  [stack, browser, receiver] = await Promise.all([
    startPortalStack({ WEBHOOK_ALLOW_PRIVATE_HOSTS: '127.0.0.1', DELIVERY_POLL_MS: '200' }),
    launchChromium(LOCAL_NETWORK_ARGS),
    startReceiver(),
  ]);
  owner = await signInWithLink(browser, stack.demoSignInLink!);
  expect(
    (await admin('PATCH', `/admin/v1/licenses/${stack.demo.licenseId}`, { addDomains: [SITE] })).status,
  ).toBe(200);
  const endpoint = await admin('POST', '/admin/v1/webhooks', {
    accountId: stack.demo.accountId,
    url: receiver.url,
    events: ['lead.created'],
  });
  expect(endpoint.status).toBe(200);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await receiver?.close();
  await stack?.close();
});

async function widgetOn(origin: string, width: number) {
  const host = await openCustomPage(browser, {
    origin,
    body: `<main><h1>Estate planning</h1><div data-svc-calculator="estate-tax"></div></main><script src="${stack.embedUrl}/loader.js" data-key="${pageKey(stack)}" data-api="${stack.apiUrl}" async></script>`,
    context: { viewport: { width, height: 2400 } },
  });
  await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
  const frame = await host.frame();
  await frame.locator('#f-estateValue').fill('8000000');
  await frame.locator('#f-state').selectOption('NY');
  await frame.getByRole('button', { name: 'Calculate' }).click();
  await frame.locator('#lead-consent').waitFor(WAIT);
  return { host, frame };
}

async function sendLead(frame: Frame, name: string) {
  await frame.locator('#lead-name').fill(name);
  await frame.locator('#lead-email').fill('zoe@example.com');
  await frame.locator('#lead-phone').fill('+1 555 010 2030');
  await frame.locator('#lead-consent').check();
  await frame.getByRole('button', { name: 'Send my details' }).click();
  await frame.locator('.lead.done').waitFor(WAIT);
}

describe('consent has one source', () => {
  it('set in the portal → shown in the widget → stored on the lead → the same in lead detail, REST, webhook and MCP', async () => {
    const { page } = owner;
    await page.getByRole('link', { name: 'Firm', exact: true }).click();
    await page.getByLabel('Consent text', { exact: true }).fill(TEXT);
    await page.getByRole('button', { name: 'Save consent' }).click();
    await expect
      .poll(() => page.locator('#firm-consent-section .success-note').textContent(), WAIT)
      .toContain('Saved');

    // The widget shows the firm's words verbatim; the widget's own line stays apart from them.
    const phone = await widgetOn(HOST, 375);
    expect(await phone.frame.locator('label[for="lead-consent"]').textContent()).toBe(TEXT);
    expect(await phone.frame.locator('form.lead .fine-print').textContent()).toMatch(/not legal advice/);
    expect(await frameAxe(phone.frame)).toEqual([]);
    await phone.frame.locator('form.lead').screenshot({ path: `${SHOTS}lead-consent-375.png` });
    await phone.host.close();

    const { host, frame } = await widgetOn(HOST, 1280);
    await frame.locator('form.lead').screenshot({ path: `${SHOTS}lead-consent-1280.png` });
    await sendLead(frame, 'Zoë Round-Trip');
    const leadId = ((await host.events('svc-lead'))[0]!.detail as { leadId: string }).leadId;
    await host.close();

    // REST: the lead's consent is that version, its text and hash, and it was not assumed.
    const lead = (await rest(`leads/${leadId}`)) as {
      consent: { versionId: string; text: string; sha256: string; assumed: boolean; agreedAt: string };
      result: {
        id: string;
        inputs: Record<string, unknown>;
        outputs: Record<string, unknown>;
        headline: string;
      };
    };
    expect(lead.consent).toMatchObject({ text: TEXT, sha256: sha256(TEXT), assumed: false });
    expect(lead.consent.versionId).toMatch(/^cv_/);
    expect(lead.result.inputs).toMatchObject({ estateValue: 8_000_000, state: 'NY' });
    expect(lead.result.headline).toMatch(/^Total estate tax: \$[\d,]+/);
    expect(await rest(`results/${lead.result.id}`)).toMatchObject({
      id: lead.result.id,
      outputs: lead.result.outputs,
    });

    // The webhook payload: the same consent and result objects.
    await expect
      .poll(() => receiver.requests.filter((r) => r.body.includes(leadId)).length, WAIT)
      .toBeGreaterThan(0);
    const hook = JSON.parse(receiver.requests.find((r) => r.body.includes(leadId))!.body) as {
      type: string;
      data: { consent: unknown; result: unknown };
    };
    expect(hook.type).toBe('lead.created');
    expect(hook.data.consent).toEqual(lead.consent);
    expect(hook.data.result).toEqual(lead.result);

    // MCP (issue 43): get_leads lists the consent summarised, get_lead gives it as stored, with the
    // result's figures once in metadata.
    const mcpCall = async (name: string, args: Record<string, unknown>) => {
      const res = await fetch(`${stack.apiUrl}/v1/mcp`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${stack.demo.apiKey}`,
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
        },
        body: JSON.stringify({
          jsonrpc: '2.0',
          id: 1,
          method: 'tools/call',
          params: { name, arguments: args },
        }),
      });
      expect(res.status).toBe(200);
      return ((await res.json()) as { result: { structuredContent: Record<string, unknown> } }).result
        .structuredContent;
    };
    const listed = (
      (await mcpCall('get_leads', { limit: 5 })).leads as { id: string; consent: unknown }[]
    ).find((l) => l.id === leadId)!;
    const { versionId, agreedAt } = lead.consent;
    expect(listed.consent).toEqual({ given: true, versionId, agreedAt });
    const full = (await mcpCall('get_lead', { id: leadId })).lead as { consent: unknown; result: unknown };
    expect(full.consent).toEqual({ given: true, ...lead.consent });
    expect(full.result).toMatchObject({ id: lead.result.id, calculatorSlug: 'estate-tax' });

    // The portal's lead detail shows the same words, version and hash.
    await page.goto(`${stack.portalUrl}/portal/leads/${leadId}`);
    const card = page.locator('.card', { has: page.getByRole('heading', { name: 'Consent' }) });
    await expect.poll(() => card.locator('blockquote.consent').textContent(), WAIT).toBe(TEXT);
    expect(await card.textContent()).toContain(lead.consent.versionId);
    expect(await card.textContent()).toContain(sha256(TEXT));
    // The page row: filled once the loader reports the page (its own change); "Not reported" until then.
    expect(await card.textContent()).toMatch(new RegExp(`Page(${HOST}/|Not reported)`));
    await checkPortalPage(browser, owner.context, page, 'lead-detail-consent');
  }, 240_000);
});

describe('test leads are visible', () => {
  it('Overview and Leads say how many test leads are hidden, and one click shows them', async () => {
    // A fresh firm whose only lead came from a development host (test mode).
    const created = await admin('POST', '/admin/v1/accounts', {
      name: 'Newcomer Law',
      email: 'owner@newcomer.example',
    });
    expect(created.status).toBe(200);
    const accountId = ((await created.json()) as { account: { id: string } }).account.id;
    expect(accountId).toBeTruthy();
    const license = (await (
      await admin('POST', '/admin/v1/licenses', {
        accountId,
        plan: 'pro',
        seats: 1,
        domains: ['newcomer.example'],
        trialDays: 14,
      })
    ).json()) as { publishableKey: string };
    const session = (await (
      await fetch(`${stack.apiUrl}/v1/api/license/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', origin: DEV_HOST },
        body: JSON.stringify({ licenseKey: license.publishableKey }),
      })
    ).json()) as { token: string; test: boolean; consent: { versionId: string } };
    expect(session.test).toBe(true);
    for (const n of [1, 2])
      expect(
        (
          await fetch(`${stack.apiUrl}/v1/api/leads`, {
            method: 'POST',
            headers: {
              'content-type': 'application/json',
              authorization: `Bearer ${session.token}`,
              'idempotency-key': `test-lead-${n}-${accountId}`,
            },
            body: JSON.stringify({
              calculator: 'rmd',
              name: `Trying it ${n}`,
              email: 'me@newcomer.example',
              state: 'NY',
              consent: true,
              consentVersionId: session.consent.versionId,
            }),
          })
        ).status,
      ).toBe(201);
    const invited = (await (
      await admin('POST', '/admin/v1/users/invite', {
        accountId,
        email: 'owner@newcomer.example',
        role: 'owner',
      })
    ).json()) as { link: string };
    const newcomer = await signInWithLink(browser, invited.link);
    const { page } = newcomer;
    const notice = page.locator('.test-leads-notice');
    await expect
      .poll(() => notice.textContent(), WAIT)
      .toBe('2 test leads from development hosts are hidden — show them');
    expect(await page.locator('.empty').textContent()).toMatch(/development hosts .* are test data/);
    await checkPortalPage(browser, newcomer.context, page, 'overview-test-leads');

    await page.getByRole('link', { name: 'Leads', exact: true }).click();
    await expect
      .poll(() => notice.textContent(), WAIT)
      .toContain('2 test leads from development hosts are hidden');
    await checkPortalPage(browser, newcomer.context, page, 'leads-test-leads');
    await notice.getByRole('link', { name: 'show them' }).click();
    await expect.poll(() => page.getByRole('row', { name: /Trying it/ }).count(), WAIT).toBe(2);
    expect(page.url()).toContain('test=include');
    expect(await notice.count()).toBe(0);
    await newcomer.context.close();
  }, 240_000);
});

/**
 * Issue 45: a Spanish widget, by `data-lang="es"` and by `auto` in a Spanish browser, on the firm's
 * allowed page: it computes, says every word in Spanish, sends a lead whose stored consent is the
 * Spanish text it showed, and downloads a Spanish PDF; axe finds nothing at 1280 and 375 px.
 */
const SPANISH_CONSENT =
  'Acepto que Demo Estate Law LLP me llame al número que di o me escriba por correo electrónico sobre mi estimación.';

/**
 * The widget's English words that Spanish never uses: every English key of the estate-tax page's
 * catalogue, split into words, less the words its Spanish also has (numbers, state names, IRC).
 */
function englishWords(): Set<string> {
  const words = (text: string) => text.toLowerCase().match(/[a-z’']{3,}/g) ?? [];
  const spanish = new Set(
    [...Object.values(spanishEstateTax.words), ...Object.values(spanishEstateTax.texts)].flatMap(words),
  );
  const english = [
    ...Object.keys(spanishEstateTax.words).filter((key) => !key.startsWith('reason:') && !key.includes(':')),
    // What the calculator stores, by code (calculators/texts.ts), the firm-only note aside.
    ...Object.entries({ ...COMMON_TEXTS, ...ESTATE_TAX_TEXTS })
      .filter(([code]) => code !== 'estate-tax.note.secondarySource')
      .map(([, en]) => en),
  ].flatMap(words);
  return new Set(english.filter((w) => !spanish.has(w)));
}

/** Every word a visitor reads or hears in the frame: text, labels, placeholders, titles, alt texts. */
async function wordsShown(frame: Frame): Promise<string[]> {
  const text = await frame.evaluate(() => {
    const attrs = [...document.querySelectorAll('[aria-label],[placeholder],[title],[alt]')].flatMap((e) =>
      ['aria-label', 'placeholder', 'title', 'alt'].map((a) => e.getAttribute(a) ?? ''),
    );
    const options = [...document.querySelectorAll('option')].map((o) => o.textContent ?? '');
    // The honeypot is hidden from people and from assistive technology (aria-hidden).
    const honeypot = document.querySelector('.honeypot')?.textContent ?? '';
    return [document.title, document.body.innerText.replace(honeypot, ''), ...attrs, ...options].join('\n');
  });
  // The firm's own name is not the widget's English.
  const shown = text.replace(/Demo Estate Law LLP/gi, '');
  const words = shown.toLowerCase().match(/[a-z’']{3,}/g) ?? [];
  // Where an English word is left, say where: the assertion names the word, this its line.
  const english = englishWords();
  for (const w of words)
    if (english.has(w))
      console.error(`English "${w}" in: ${shown.split('\n').find((l) => l.toLowerCase().includes(w))}`);
  return words;
}

/** The date field of a Spanish widget in an English browser: its name and description in Spanish, the date in words. */
async function dateSaidInSpanish(frame: Frame): Promise<void> {
  const field = frame.locator('#f-dateOfDeath');
  expect(await field.evaluate((e) => (e as HTMLInputElement).labels?.[0]?.textContent)).toMatch(
    /^Fecha de fallecimiento/,
  );
  const description = await field.evaluate((e) =>
    (e.getAttribute('aria-describedby') ?? '')
      .split(' ')
      .map((id) => document.getElementById(id)?.textContent ?? '')
      .join(' '),
  );
  expect(description).toContain('Si el campo muestra mm/dd/yyyy, escriba mes/día/año.');
  expect(description).toContain('Fecha elegida: 1 de mayo de 2026.');
}

async function spanishWidget(lang: 'es' | 'auto', width: number, locale?: string) {
  const host = await openCustomPage(browser, {
    origin: HOST,
    body: `<main><h1>Planificación patrimonial</h1><div data-svc-calculator="estate-tax"></div></main><script src="${stack.embedUrl}/loader.js" data-key="${pageKey(stack)}" data-api="${stack.apiUrl}" data-lang="${lang}" async></script>`,
    context: { viewport: { width, height: 2400 }, acceptDownloads: true, ...(locale ? { locale } : {}) },
  });
  await expect.poll(() => host.count('svc-ready'), WAIT).toBe(1);
  const frame = await host.frame();
  await frame.locator('#f-estateValue').fill('20000000');
  await frame.locator('#f-state').selectOption('NY');
  // The advanced questions and the breakdown open, so their words are read too; the date of death
  // is chosen (the browser draws its field in English: mm/dd/yyyy), so its Spanish words show.
  await frame.getByText('Opciones avanzadas').click();
  await frame.locator('#f-dateOfDeath').fill('2026-05-01');
  await frame.getByRole('button', { name: 'Calcular' }).click();
  await frame.locator('#lead-consent').waitFor(WAIT);
  await frame.locator('details.breakdown summary').click();
  return { host, frame };
}

describe('the widget in Spanish (issue 45)', () => {
  it('portal: a firm with its own English consent is told Spanish visitors see it in English, and publishes a Spanish one', async () => {
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal/settings/firm`);
    await page.getByTestId('spanish-consent-missing').waitFor(WAIT);
    await page.getByLabel('Consent text in Spanish').fill(SPANISH_CONSENT);
    await page.getByRole('button', { name: 'Save consent' }).click();
    await expect.poll(() => page.getByTestId('spanish-consent-missing').count(), WAIT).toBe(0);
    const versions = page.locator('#consent-versions');
    await expect.poll(() => versions.textContent(), WAIT).toContain(SPANISH_CONSENT);
    expect(await versions.textContent()).toContain('Spanish');
    await checkPortalPage(browser, owner.context, page, 'firm-spanish-consent');
  }, 120_000);

  it('by data-lang="es": every word in Spanish, axe-clean at 375 and 1280, a Spanish lead and a Spanish PDF', async () => {
    const english = englishWords();
    expect(english.has('calculate')).toBe(true);
    const phone = await spanishWidget('es', 375);
    expect(await phone.frame.evaluate(() => document.documentElement.lang)).toBe('es');
    expect(await phone.host.page.locator('iframe').getAttribute('title')).toBe(
      'Calculadora del impuesto sobre el patrimonio',
    );
    expect((await wordsShown(phone.frame)).filter((w) => english.has(w))).toEqual([]);
    expect(await phone.frame.locator('label[for="lead-consent"]').textContent()).toBe(SPANISH_CONSENT);
    await dateSaidInSpanish(phone.frame);
    expect(await frameAxe(phone.frame)).toEqual([]);
    // The whole widget in view before it is captured: Chromium leaves the part of a cross-site
    // frame outside the viewport blank in an element's screenshot (the date check scrolled it).
    const tall = await phone.host.page.evaluate(() => document.documentElement.scrollHeight);
    await phone.host.page.setViewportSize({ width: 375, height: Math.min(tall, 8000) });
    await phone.frame.locator('main').screenshot({ path: `${SHOTS}spanish-375.png` });
    await phone.frame.locator('.field.date').screenshot({ path: `${SHOTS}spanish-date-375.png` });
    await phone.host.close();

    const { host, frame } = await spanishWidget('es', 1280);
    expect(await frame.locator('.headline').textContent()).toMatch(
      /^El patrimonio tendría que pagar aproximadamente \$[\d,]+ de impuesto federal sobre el patrimonio y aproximadamente \$[\d,]+ de impuesto sobre el patrimonio de Nueva York\.$/,
    );
    expect((await wordsShown(frame)).filter((w) => english.has(w))).toEqual([]);
    await dateSaidInSpanish(frame);
    expect(await frameAxe(frame)).toEqual([]);
    await frame.locator('main').screenshot({ path: `${SHOTS}spanish-1280.png` });
    await frame.locator('.field.date').screenshot({ path: `${SHOTS}spanish-date-1280.png` });

    // The PDF, downloaded as the visitor would.
    const [download] = await Promise.all([
      host.page.waitForEvent('download'),
      frame.getByRole('button', { name: 'Descargar el informe en PDF' }).click(),
    ]);
    const pdf = readFileSync((await download.path())!);
    const { text } = await readPdf(pdf);
    const flat = text.replace(/\s+/g, ' ');
    expect(flat).toContain('INFORME DE ESTIMACIÓN');
    expect(flat).toContain('Impuesto sobre el patrimonio de Nueva York');
    expect(flat).not.toContain('Taxable estate');
    writeFileSync(`${SHOTS}spanish-report.png`, await renderPdfPage(pdf, 1, 1.5));

    // The lead: the Spanish text shown, its version, hash and language, stored as shown.
    await frame.locator('#lead-name').fill('María Pérez');
    await frame.locator('#lead-email').fill('maria@example.com');
    await frame.locator('#lead-state').selectOption('TX');
    await frame.locator('#lead-consent').check();
    await frame.getByRole('button', { name: 'Enviar mis datos' }).click();
    await frame.locator('.lead.done').waitFor(WAIT);
    expect(await frame.locator('.lead.done').textContent()).toContain('se comunicará con usted');
    expect((await wordsShown(frame)).filter((w) => english.has(w))).toEqual([]);
    const events = await host.events();
    // Events are values, never words: the same in both languages.
    expect(events.find((e) => e.type === 'svc-result')!.detail).toMatchObject({
      calculator: 'estate-tax',
      state: 'NY',
    });
    const leadId = ((await host.events('svc-lead'))[0]!.detail as { leadId: string }).leadId;
    await host.close();
    const lead = (await rest(`leads/${leadId}`)) as {
      language: string;
      consent: { text: string; sha256: string; language: string; versionId: string };
    };
    expect(lead.language).toBe('es');
    expect(lead.consent).toMatchObject({
      text: SPANISH_CONSENT,
      sha256: sha256(SPANISH_CONSENT),
      language: 'es',
    });

    // The portal shows the lead's language.
    const { page } = owner;
    await page.goto(`${stack.portalUrl}/portal/leads/${leadId}`);
    await expect.poll(() => page.locator('main').textContent(), WAIT).toContain('Spanish');
    await page.goto(`${stack.portalUrl}/portal/leads?language=es`);
    await expect.poll(() => page.getByRole('row', { name: /María Pérez/ }).count(), WAIT).toBe(1);
  }, 240_000);

  it('by data-lang="auto" in a Spanish browser: the same Spanish widget', async () => {
    const english = englishWords();
    const { host, frame } = await spanishWidget('auto', 1280, 'es-US');
    expect(await frame.evaluate(() => [document.documentElement.lang, navigator.language])).toEqual([
      'es',
      'es-US',
    ]);
    expect((await wordsShown(frame)).filter((w) => english.has(w))).toEqual([]);
    await host.close();
    // And in an English browser, `auto` is English.
    const en = await openCustomPage(browser, {
      origin: HOST,
      body: `<div data-svc-calculator="estate-tax"></div><script src="${stack.embedUrl}/loader.js" data-key="${pageKey(stack)}" data-api="${stack.apiUrl}" data-lang="auto" async></script>`,
      context: { locale: 'en-US' },
    });
    await expect.poll(() => en.count('svc-ready'), WAIT).toBe(1);
    expect(await (await en.frame()).evaluate(() => document.documentElement.lang)).toBe('en');
    await en.close();
  }, 120_000);

  it('a refused Spanish widget says its notice in Spanish: by data-lang="es", and by auto in a Spanish browser', async () => {
    for (const [lang, locale] of [
      ['es', 'en-US'],
      ['auto', 'es-US'],
    ] as const) {
      const refused = await openCustomPage(browser, {
        origin: 'https://not-a-client.example',
        body: `<div id="calc" data-svc-calculator="estate-tax"></div><script src="${stack.embedUrl}/loader.js" data-key="${pageKey(stack)}" data-api="${stack.apiUrl}" data-lang="${lang}" async></script>`,
        context: { locale },
      });
      const notice = refused.page.locator('#calc [data-svc-fallback]');
      await expect.poll(() => notice.count(), WAIT).toBe(1);
      expect([await notice.getAttribute('lang'), await notice.textContent()]).toEqual([
        'es',
        'Esta calculadora no está disponible aquí por ahora.',
      ]);
      await refused.close();
    }
  }, 60_000);
});
