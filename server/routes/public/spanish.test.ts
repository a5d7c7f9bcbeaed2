import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { publishConsentText } from '../../domain/accounts/consent.ts';
import { readPdf } from '../../test-support/pdf-reader.ts';
import { portalCaller } from '../../test-support/portal-session.ts';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

/**
 * Issue 45: a Spanish widget's consent, result and lead. One embed session serves widgets of both
 * languages; the lead keeps exactly the text its visitor saw, with its language; a firm with its own
 * English text and no Spanish one is never given the default Spanish in place of its words.
 */
let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const ORIGIN = 'https://smithlaw.com';
const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

async function session(publishableKey: string) {
  const res = await t.json('/v1/api/license/activate', { licenseKey: publishableKey }, { origin: ORIGIN });
  expect(res.status).toBe(200);
  return res.json();
}

async function postLead(embed: string, key: string, body: Record<string, unknown>) {
  const res = await t.json(
    '/v1/api/leads',
    {
      calculator: 'estate-tax',
      name: 'María Pérez',
      email: 'maria@example.com',
      state: 'TX',
      consent: true,
      ...body,
    },
    { authorization: `Bearer ${embed}`, 'idempotency-key': `spanish-${key}` },
  );
  expect(res.status).toBe(201);
  return (await res.json()).leadId as string;
}

describe('Spanish consent, results and leads', () => {
  it('a firm on the default English consent: the session carries the default Spanish, and the lead stores it', async () => {
    const f = await t.seed.firm();
    const s = await session(f.publishableKey);
    expect(s.consent.language).toBe('en');
    const es = s.consent.byLanguage.es;
    expect(es.language).toBe('es');
    expect(es.text).toBe(
      `Autorizo a ${f.account.name} a comunicarse conmigo por correo electrónico o por teléfono sobre mi consulta y a conservar los datos que ingresé con ese fin.`,
    );
    expect(es.sha256).toBe(sha256(es.text));
    expect(es.versionId).not.toBe(s.consent.versionId);
    // A second session hands out the same Spanish version (written once).
    expect((await session(f.publishableKey)).consent.byLanguage.es.versionId).toBe(es.versionId);

    const calc = await t.json(
      '/v1/api/calc/estimate',
      { calculator: 'estate-tax', inputs: { estateValue: 20_000_000, state: 'NY' }, language: 'es' },
      { authorization: `Bearer ${s.token}` },
    );
    const result = await calc.json();
    expect([calc.status, result.language]).toEqual([200, 'es']);
    // Values never change with the language: the notes and labels stay the calculator's English.
    expect(result.lineItems[0].label).toBe('Taxable estate');

    // The report of a Spanish result is in Spanish, read back from the PDF's text.
    const pdf = await t.json(
      '/v1/api/pdf/generate',
      { resultId: result.resultId },
      { authorization: `Bearer ${s.token}` },
    );
    expect(pdf.status).toBe(200);
    const { text } = await readPdf(Buffer.from(await pdf.arrayBuffer()));
    const flat = text.replace(/\s+/g, ' ');
    for (const words of [
      'INFORME DE ESTIMACIÓN',
      'Impuesto sobre el patrimonio',
      'SUS RESPUESTAS',
      'NOTAS',
      // The rules in words in Spanish (not the English sentence with its states swapped).
      'Normas federales y de Nueva York para fallecimientos en 2026',
      'AÑO TRIBUTARIO',
      'Patrimonio imponible',
      'Estado de residencia',
      'Nueva York',
      'Impuesto sobre el patrimonio de Nueva York',
      'Las federales para fallecimientos en 2026 y las de Nueva York',
      'Esta es una estimación solo para fines informativos',
      'Página 1 de 1',
    ])
      expect(flat).toContain(words);
    for (const english of [
      'Taxable estate',
      'Your inputs',
      'Notes',
      'ESTIMATE REPORT',
      'not legal or tax advice',
      'rules for',
      'Effective rate',
      'Deceased spouse',
    ])
      expect(flat).not.toContain(english);
    expect(flat).toContain('$20,000,000');

    const leadId = await postLead(s.token, 'es-1', {
      resultId: result.resultId,
      consentVersionId: es.versionId,
      language: 'es',
    });
    await postLead(s.token, 'en-1', { consentVersionId: s.consent.versionId, email: 'ann@example.com' });
    const { apiKey } = await t.seed.apiKey(f.account.id);
    const lead = await (await t.get(`/v1/api/leads/${leadId}`, apiKey)).json();
    expect(lead.language).toBe('es');
    expect(lead.consent).toMatchObject({
      versionId: es.versionId,
      text: es.text,
      sha256: es.sha256,
      language: 'es',
    });

    const spanishOnly = (await (await t.get('/v1/api/leads?language=es', apiKey)).json()).data;
    expect(spanishOnly.map((l: { leadId: string }) => l.leadId)).toEqual([leadId]);
    const all = (await (await t.get('/v1/api/leads', apiKey)).json()).data;
    expect(all.map((l: { language: string }) => l.language).sort()).toEqual(['en', 'es']);
    const bad = await t.get('/v1/api/leads?language=fr', apiKey);
    expect([bad.status, (await bad.json()).error.code]).toEqual([400, 'INVALID_REQUEST']);

    const owner = await portalCaller(t, f.account.id, 'admin');
    const csv = await t.app.request('/v1/portal/leads/export.csv', { headers: { cookie: owner.cookie } });
    const [header, ...rows] = (await csv.text())
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    // Found by name: issue 40's columns were appended in the same round.
    const names = header!.split(',');
    const cells = (line: string) => [...line.matchAll(/"((?:[^"]|"")*)"/g)].map((m) => m[1]);
    const spanishRow = cells(rows.find((r) => r.includes(leadId))!);
    expect(spanishRow[names.indexOf('language')]).toBe('es');
    expect(spanishRow[names.indexOf('consent_language')]).toBe('es');
    const portalLeads = await owner.call('GET', 'leads?language=es');
    expect(portalLeads.body.data.map((l: { leadId: string }) => l.leadId)).toEqual([leadId]);
  });

  it('a firm with its own English text and no Spanish one: Spanish widgets show its English words; the portal says so; publishing Spanish replaces them', async () => {
    const f = await t.seed.firm();
    const owner = await portalCaller(t, f.account.id, 'admin');
    const own = 'I agree that Hale & Partners may call or e-mail me about my estate.';
    expect((await owner.call('PATCH', 'settings/firm', { consentText: own })).status).toBe(200);
    const before = await session(f.publishableKey);
    expect(before.consent.byLanguage.es).toEqual({
      versionId: before.consent.versionId,
      text: own,
      sha256: sha256(own),
      language: 'en',
    });
    expect((await owner.call('GET', 'settings/firm')).body).toMatchObject({
      spanishConsent: 'english',
      consentEs: null,
    });
    // A Spanish lead under the English text keeps the English words and says so.
    const leadId = await postLead(before.token, 'es-en-1', {
      consentVersionId: before.consent.byLanguage.es.versionId,
      language: 'es',
    });
    const { apiKey } = await t.seed.apiKey(f.account.id);
    const stored = await (await t.get(`/v1/api/leads/${leadId}`, apiKey)).json();
    expect([stored.language, stored.consent.language, stored.consent.text]).toEqual(['es', 'en', own]);

    const spanish =
      'Acepto que Hale & Partners me llame o me escriba por correo electrónico sobre mi patrimonio.';
    const saved = await owner.call('PATCH', 'settings/firm', { consentTextEs: spanish });
    expect(saved.status).toBe(200);
    expect(saved.body).toMatchObject({ spanishConsent: 'own', consentEs: { text: spanish } });
    expect(saved.body.consent.text).toBe(own);
    expect(saved.body.consentVersions.map((v: { language: string }) => v.language)).toEqual(['es', 'en']);
    const after = await session(f.publishableKey);
    expect(after.consent.versionId).toBe(before.consent.versionId);
    expect(after.consent.byLanguage.es).toMatchObject({
      text: spanish,
      language: 'es',
      sha256: sha256(spanish),
    });
    const tooShort = await owner.call('PATCH', 'settings/firm', { consentTextEs: 'Sí.' });
    expect([tooShort.status, tooShort.body.error.code]).toEqual([400, 'INVALID_REQUEST']);
  });

  it('a firm that writes its own English after the Spanish default was published for it: Spanish widgets show its English words, not the default', async () => {
    const f = await t.seed.firm();
    const first = await session(f.publishableKey);
    expect(first.consent.byLanguage.es).toMatchObject({ language: 'es' });
    const owner = await portalCaller(t, f.account.id, 'admin');
    expect((await owner.call('GET', 'settings/firm')).body.spanishConsent).toBe('default');
    const own = 'I agree that this firm may write to me by e-mail only, never by phone.';
    expect((await owner.call('PATCH', 'settings/firm', { consentText: own })).status).toBe(200);
    const after = await session(f.publishableKey);
    expect(after.consent.byLanguage.es).toMatchObject({ text: own, language: 'en' });
    expect((await owner.call('GET', 'settings/firm')).body.spanishConsent).toBe('english');
  });

  it('a firm whose name holds $& or $1 sees its name as written in the default consent', async () => {
    const f = await t.seed.firm();
    const owner = await portalCaller(t, f.account.id, 'admin');
    expect((await owner.call('PATCH', 'settings/firm', { name: 'Ruiz $& $1 Law' })).status).toBe(200);
    const s = await session(f.publishableKey);
    expect(s.consent.byLanguage.es.text).toContain('Autorizo a Ruiz $& $1 Law a comunicarse');
  });

  it('a firm still on the earlier Spanish default gets the current one as a new version; its leads keep the words they were shown', async () => {
    const f = await t.seed.firm();
    const earlier = `Acepto que ${f.account.name} se comunique conmigo por correo electrónico o por teléfono sobre mi consulta y que conserve los datos que ingresé con ese fin.`;
    await publishConsentText(t.services.licensing, f.account.id, earlier, 'es');
    const before = await session(f.publishableKey);
    const current = `Autorizo a ${f.account.name} a comunicarse conmigo por correo electrónico o por teléfono sobre mi consulta y a conservar los datos que ingresé con ese fin.`;
    expect(before.consent.byLanguage.es).toMatchObject({ text: current, language: 'es' });
    expect(before.consent.language).toBe('en');
    // A lead that names the earlier version (a widget opened before) keeps exactly those words.
    const owner = await portalCaller(t, f.account.id, 'admin');
    const versions = (await owner.call('GET', 'settings/firm')).body.consentVersions as {
      versionId?: string;
      id?: string;
      text: string;
      language: string;
    }[];
    const earlierVersion = versions.find((v) => v.text === earlier);
    expect(earlierVersion).toBeDefined();
    expect(versions.filter((v) => v.language === 'es').map((v) => v.text)).toEqual([current, earlier]);
    const leadId = await postLead(before.token, 'es-earlier', {
      consentVersionId: earlierVersion!.versionId ?? earlierVersion!.id,
      language: 'es',
    });
    const { apiKey } = await t.seed.apiKey(f.account.id);
    const stored = await (await t.get(`/v1/api/leads/${leadId}`, apiKey)).json();
    expect(stored.consent).toMatchObject({ text: earlier, sha256: sha256(earlier), language: 'es' });
    // Renamed while on the default: the Spanish default follows the new name.
    expect((await owner.call('PATCH', 'settings/firm', { name: 'Vega & Ruiz' })).status).toBe(200);
    expect((await session(f.publishableKey)).consent.byLanguage.es.text).toBe(
      current.replace(f.account.name, 'Vega & Ruiz'),
    );
  });
});
