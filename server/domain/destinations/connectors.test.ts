import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LeadView } from '../../contracts/lead.ts';
import { FIXTURE, startCrmStandIns } from '../../test-support/crm-stand-ins.ts';
import { postToVendor } from '../delivery/http-sender.ts';
import { systemResolver } from '../delivery/ssrf-guard.ts';
import { redirectToBase } from './base-urls.ts';
import { type Connector, verdictOf } from './connector.ts';
import { CONNECTORS } from './connectors/index.ts';
import { crmLeadOf } from './crm-note.ts';

const agreedAt = '2026-11-28T15:04:05.000Z';
const SAMPLE_LEAD: LeadView = {
  leadId: 'lead_contract0000000000000000',
  calculator: 'estate-tax',
  resultId: 'res_1',
  name: 'Juan de la Cruz Jr.',
  email: 'juan@example.com',
  phone: '(212) 736-5000',
  state: 'NY',
  status: 'new',
  consentText: 'I agree that Example Law may contact me about my enquiry.',
  consentVersionId: 'cv_1',
  consentedAt: agreedAt,
  consent: {
    versionId: 'cv_1',
    text: 'I agree that Example Law may contact me about my enquiry.',
    sha256: '0'.repeat(64),
    agreedAt,
    page: 'https://www.example-law.com/estate-planning',
    pageVerified: true,
    assumed: false,
    language: 'en',
  },
  result: {
    id: 'res_1',
    calculator: 'estate-tax',
    state: 'NY',
    inputs: { estateValue: 8_000_000, state: 'NY' },
    outputs: { federalTax: 0, stateTax: 773_200, totalTax: 773_200 },
    headline: 'Total estate tax: $773,200.00',
    headlineCode: { code: 'estate-tax.headline.totalTax', params: { amount: '$773,200.00' } },
  },
  test: false,
  quarantined: false,
  quarantineReasons: [],
  language: 'en',
  createdAt: agreedAt,
  updatedAt: agreedAt,
};

let crm: Awaited<ReturnType<typeof startCrmStandIns>>;
beforeAll(async () => {
  crm = await startCrmStandIns();
});
afterAll(() => crm.close());

const SETTINGS = {
  'clio-grow': { region: 'us' },
  hubspot: {
    portalId: '62515',
    formGuid: '78c2891f-ebdd-44c0-bd94-15c012bbbfbf',
    figureFields: { estateValue: 'estate_value' },
  },
  wealthbox: { figureFields: { estateValue: 42 } },
  salesforce: { figureFields: { estateValue: 'Estate_Value__c' } },
} as const;
const GOOD = {
  'clio-grow': 'clio-good-token',
  hubspot: 'pat-na1-good',
  wealthbox: 'wb-good-token',
  salesforce: '00D000000000001',
};
const BAD = {
  'clio-grow': 'clio-wrong',
  hubspot: 'pat-na1-wrong',
  wealthbox: 'wb-wrong',
  salesforce: '00D999999999999',
};

async function deliver(vendor: keyof typeof SETTINGS, credential: string, lead: LeadView = SAMPLE_LEAD) {
  const connector = CONNECTORS[vendor] as unknown as Connector;
  const settings = connector.settings.parse(SETTINGS[vendor]);
  const request = connector.build(
    crmLeadOf(lead, 'https://portal.svc.test/portal/leads'),
    settings,
    credential,
  );
  const outcome = await postToVendor(
    redirectToBase(request.url, new URL(crm.base)),
    request.body,
    request.contentType,
    request.headers,
    { timeoutMs: 5_000, resolver: systemResolver, allowPrivateHosts: ['127.0.0.1'] },
  );
  const verdict = verdictOf(
    connector,
    {
      statusCode: outcome.statusCode,
      error: outcome.error,
      body: outcome.excerpt,
      retryAfter: outcome.responseHeaders?.['retry-after'],
    },
    new Date(),
  );
  return { request, outcome, verdict, received: crm.received.at(-1)! };
}

describe('Clio Grow connector against the Lead Inbox stand-in', () => {
  it('posts the documented JSON to /inbox_leads with the token and the required fields', async () => {
    const { verdict, received, request } = await deliver('clio-grow', GOOD['clio-grow']);
    expect(request.url).toBe('https://grow.clio.com/inbox_leads');
    expect(verdict).toEqual({ kind: 'delivered' });
    expect(received).toMatchObject({ method: 'POST', path: '/inbox_leads', status: 201 });
    expect(received.headers['content-type']).toBe('application/json');
    expect(received.headers.accept).toBe('application/json');
    const sent = JSON.parse(received.body);
    expect(sent.inbox_lead_token).toBe('clio-good-token');
    expect(sent.inbox_lead).toMatchObject({
      from_first: 'Juan',
      from_last: 'de la Cruz Jr.',
      from_email: 'juan@example.com',
      from_phone: '+12127365000',
      referring_url: 'https://www.example-law.com/estate-planning',
      from_source: 'svc calculators',
    });
    expect(sent.inbox_lead.from_message).toContain('Total estate tax: $773,200.00');
    expect(sent.inbox_lead.from_message).toContain('Phone as entered: (212) 736-5000');
    expect(sent.inbox_lead.from_message).toContain(
      'https://portal.svc.test/portal/leads/lead_contract0000000000000000',
    );
  });
  it('regional hosts are the vendor’s', () => {
    expect(
      CONNECTORS['clio-grow'].url(CONNECTORS['clio-grow'].settings.parse({ region: 'eu' }) as never),
    ).toBe('https://eu.grow.clio.com/inbox_leads');
  });
  it('the documented sample request is accepted by the stand-in', async () => {
    const res = await fetch(`${crm.base}/inbox_leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: FIXTURE('clio-grow-sample.json'),
    });
    expect(res.status).toBe(201);
  });
  it('a refused token, a validation error and a 429 read as the vendor meant them', async () => {
    expect((await deliver('clio-grow', BAD['clio-grow'])).verdict.kind).toBe('credential_refused');
    const invalid = await fetch(`${crm.base}/inbox_leads`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: JSON.stringify({ inbox_lead_token: GOOD['clio-grow'], inbox_lead: { from_last: 'Doe' } }),
    });
    const verdict = verdictOf(
      CONNECTORS['clio-grow'],
      { statusCode: invalid.status, error: null, body: await invalid.text() },
      new Date(),
    );
    expect(verdict).toMatchObject({ kind: 'rejected' });
    expect(verdict.kind === 'rejected' && verdict.message).toContain("from_first can't be blank");
    crm.throttle('clio-grow', 1, 7);
    expect((await deliver('clio-grow', GOOD['clio-grow'])).verdict).toMatchObject({
      kind: 'retry',
      retryAfterMs: 7000,
    });
  });
});

describe('HubSpot connector against the Forms API v3 stand-in', () => {
  it('submits fields of object type 0-1, pageUri, submittedAt and the consent text with a bearer token', async () => {
    const { verdict, received, request } = await deliver('hubspot', GOOD.hubspot);
    expect(request.url).toBe(
      'https://api.hsforms.com/submissions/v3/integration/secure/submit/62515/78c2891f-ebdd-44c0-bd94-15c012bbbfbf',
    );
    expect(verdict).toEqual({ kind: 'delivered' });
    expect(received.status).toBe(200);
    expect(received.headers.authorization).toBe('Bearer pat-na1-good');
    const sent = JSON.parse(received.body);
    const byName = Object.fromEntries(
      sent.fields.map((f: { name: string; value: string }) => [f.name, f.value]),
    );
    expect(sent.fields.every((f: { objectTypeId: string }) => f.objectTypeId === '0-1')).toBe(true);
    expect(byName).toMatchObject({
      firstname: 'Juan',
      lastname: 'de la Cruz Jr.',
      email: 'juan@example.com',
      phone: '+12127365000',
      estate_value: '8000000',
    });
    expect(byName.message).toContain('Estate tax');
    expect(sent.submittedAt).toBe(String(Date.parse(agreedAt)));
    expect(sent.context.pageUri).toBe('https://www.example-law.com/estate-planning');
    expect(sent.legalConsentOptions.consent).toEqual({
      consentToProcess: true,
      text: SAMPLE_LEAD.consent.text,
      communications: [],
    });
  });
  it('the documented example body is accepted by the stand-in', async () => {
    const res = await fetch(
      `${crm.base}/submissions/v3/integration/secure/submit/62515/78c2891f-ebdd-44c0-bd94-15c012bbbfbf`,
      {
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: 'Bearer pat-na1-good' },
        body: FIXTURE('hubspot-sample.json'),
      },
    );
    expect(res.status).toBe(200);
  });
  it('a refused token, a token without the forms scope, a field not on the form and a 429', async () => {
    expect((await deliver('hubspot', BAD.hubspot)).verdict.kind).toBe('credential_refused');
    expect((await deliver('hubspot', 'pat-na1-noscope')).verdict.kind).toBe('credential_refused');
    const saved = [...crm.hub.formFields];
    crm.hub.formFields.splice(crm.hub.formFields.indexOf('estate_value'), 1);
    const rejected = await deliver('hubspot', GOOD.hubspot);
    crm.hub.formFields.splice(0, crm.hub.formFields.length, ...saved);
    expect(rejected.verdict).toMatchObject({ kind: 'rejected' });
    expect(rejected.verdict.kind === 'rejected' && rejected.verdict.message).toContain(
      'does not exist on the form',
    );
    crm.throttle('hubspot', 1, 10);
    expect((await deliver('hubspot', GOOD.hubspot)).verdict).toMatchObject({
      kind: 'retry',
      retryAfterMs: 10_000,
    });
  });
});

describe('Wealthbox connector against the API v1 stand-in', () => {
  it('creates a Person with names, e-mail, phone, the note as background and mapped custom fields', async () => {
    const { verdict, received, request } = await deliver('wealthbox', GOOD.wealthbox);
    expect(request.url).toBe('https://api.crmworkspace.com/v1/contacts');
    expect(verdict).toEqual({ kind: 'delivered' });
    expect(received.headers.access_token).toBe('wb-good-token');
    expect(received.headers['content-type']).toBe('application/json');
    const sent = JSON.parse(received.body);
    expect(sent).toMatchObject({
      type: 'Person',
      first_name: 'Juan',
      last_name: 'de la Cruz Jr.',
      email_addresses: [{ address: 'juan@example.com', principal: true }],
      phone_numbers: [{ address: '+12127365000', principal: true }],
      custom_fields: [{ id: 42, value: '8000000' }],
    });
    expect(sent.background_information).toContain('Consent given 2026-11-28T15:04:05.000Z');
  });
  it('the documented example is accepted; a single name still gives both names', async () => {
    const res = await fetch(`${crm.base}/v1/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', access_token: 'wb-good-token' },
      body: FIXTURE('wealthbox-sample.json'),
    });
    expect(res.status).toBe(200);
    expect((await deliver('wealthbox', GOOD.wealthbox, { ...SAMPLE_LEAD, name: 'Cher' })).verdict.kind).toBe(
      'delivered',
    );
  });
  it('a refused token, a validation error and a 429', async () => {
    expect((await deliver('wealthbox', BAD.wealthbox)).verdict.kind).toBe('credential_refused');
    const invalid = await fetch(`${crm.base}/v1/contacts`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', access_token: 'wb-good-token' },
      body: JSON.stringify({ type: 'Person', first_name: 'Only' }),
    });
    expect(invalid.status).toBe(422);
    crm.throttle('wealthbox', 1, 3);
    expect((await deliver('wealthbox', GOOD.wealthbox)).verdict).toMatchObject({
      kind: 'retry',
      retryAfterMs: 3000,
    });
  });
});

describe('Salesforce connector against the Web-to-Lead stand-in', () => {
  it('posts the form-encoded lead with the oid; 200 whether or not Salesforce kept it', async () => {
    const before = crm.kept.salesforce.length;
    const { verdict, received, request } = await deliver('salesforce', GOOD.salesforce);
    expect(request.url).toBe('https://webto.salesforce.com/servlet/servlet.WebToLead?encoding=UTF-8');
    expect(verdict).toEqual({ kind: 'delivered' });
    expect(received.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(crm.kept.salesforce.length).toBe(before + 1);
    expect(crm.kept.salesforce.at(-1)).toMatchObject({
      oid: '00D000000000001',
      first_name: 'Juan',
      last_name: 'de la Cruz Jr.',
      email: 'juan@example.com',
      phone: '+12127365000',
      state: 'NY',
      lead_source: 'Web',
      Estate_Value__c: '8000000',
    });
    // An unknown org: still 200, and the lead is gone (what docs/destinations.md warns of).
    expect((await deliver('salesforce', BAD.salesforce)).verdict).toEqual({ kind: 'delivered' });
    expect(crm.kept.salesforce.length).toBe(before + 1);
  });
  it('the documented form fields are accepted', async () => {
    const res = await fetch(`${crm.base}/servlet/servlet.WebToLead?encoding=UTF-8`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: FIXTURE('salesforce-sample.txt'),
    });
    expect(res.status).toBe(200);
  });
});

describe('the CRM note', () => {
  it('renders optional contract fields when present and says nothing of absent ones', () => {
    const plain = crmLeadOf(SAMPLE_LEAD, 'https://p/leads').note;
    expect(plain).not.toMatch(/Priority|Value:/);
    // The language is part of every lead's contract since issue 45: stated for English leads too.
    expect(plain).toContain('Language: English');
    const richer = crmLeadOf(
      {
        ...SAMPLE_LEAD,
        priority: { level: 'high', reasons: ['estate over $5M'], ruleVersion: 'estate-tax.1' },
        value: { figure: 'totalTax', label: 'Total estate tax', amount: 773_200 },
        language: 'es',
      } as LeadView,
      'https://p/leads',
    ).note;
    expect(richer).toContain('Priority: high (estate over $5M)');
    expect(richer).toContain('Value: Total estate tax $773,200.00');
    expect(richer).toContain('Language: Spanish');
  });
});
