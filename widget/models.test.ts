import { signal } from '@preact/signals';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { estateTaxCore } from '../calculators/estate-tax/core.ts';
import { runCalculator } from '../calculators/index.ts';
import { rmdCore } from '../calculators/rmd/core.ts';
import { visitorNotes } from '../calculators/visitor-notes.ts';
import { ApiError, createApi } from './api.ts';
import { CalculatorModel, type Emit } from './calculator-model.ts';
import { estateTaxForm } from './forms/estate-tax.ts';
import { rmdForm } from './forms/rmd.ts';
import { LeadModel } from './lead-model.ts';
import { SessionModel } from './session-model.ts';
import {
  API,
  apiError,
  EASY_CHALLENGE,
  fakeBridge,
  json,
  stubFetch,
  stubLeadFetch,
  TEST_CONSENT,
} from './testing.ts';

const ESTATE = { core: estateTaxCore, form: estateTaxForm };
const RMD = { core: rmdCore, form: rmdForm };
const emitted: { type: string; payload: unknown }[] = [];
const emit: Emit = (type, payload) => void emitted.push({ type, payload });
const api = createApi({ credentials: () => ({ token: 't', apiUrl: API }), renew: async () => false });

afterEach(() => {
  emitted.length = 0;
  vi.unstubAllGlobals();
});

describe('SessionModel', () => {
  it('holds the credentials from svc-init, renews the token, and clears them on a refusal', () => {
    const fake = fakeBridge();
    let ready = 0;
    const session = new SessionModel(fake.bridge, () => ready++);
    expect(session.credentials.value).toBeUndefined();
    expect(ready).toBe(0);
    fake.init('tok-1');
    expect(session.credentials.value).toEqual({ token: 'tok-1', apiUrl: API });
    fake.renewWith('tok-2');
    void session.renew();
    expect(session.credentials.value).toEqual({ token: 'tok-2', apiUrl: API });
    fake.refuse('domain_not_allowed', 'not here');
    expect(session.credentials.value).toBeUndefined();
    expect(ready).toBe(1); // once, at the first session
    expect(session.problem.value).toEqual({ reason: 'domain_not_allowed', message: 'not here' });
    session[Symbol.dispose]();
    fake.init('after-dispose');
    expect(session.credentials.value).toBeUndefined();
  });

  it('says so when the page is opened outside a loader', () => {
    expect(new SessionModel(undefined).problem.value).toBeDefined();
  });
});

describe('CalculatorModel', () => {
  it('computes the instant result locally as values change, exactly as runCalculator does', () => {
    const model = new CalculatorModel(ESTATE, api, emit);
    expect(model.instant.value.ok).toBe(false);
    model.setValue('estateValue', '16,000,000');
    model.setValue('state', 'NY');
    const expected = runCalculator('estate-tax', {
      estateValue: 16_000_000,
      state: 'NY',
      adjustedTaxableGifts: 0,
      portableExclusion: 0,
      applyStateDeathTaxDeduction: true,
    });
    // The same computation; the server's result adds what only the firm reads (sources, notes on
    // figures confirmed by secondary sources only), which the widget neither bundles nor shows.
    const instant = model.instant.value;
    if (!instant.ok || !expected.ok) throw new Error('valid inputs refused');
    expect(instant.inputs).toEqual(expected.inputs);
    const { notes, ruleSet, ...figures } = instant.result;
    const { notes: serverNotes, ruleSet: serverRules, ...serverFigures } = expected.result;
    expect(figures).toEqual(serverFigures);
    expect(visitorNotes(notes)).toEqual(visitorNotes(serverNotes));
    expect({ ...ruleSet, sources: [] }).toEqual({ ...serverRules, sources: [] });
    expect(ruleSet.sources).toEqual([]);
    expect(serverRules.sources.length).toBeGreaterThan(0);
  });

  it('pre-selects the state the host page named (data-state), and only a real one', () => {
    expect(new CalculatorModel(ESTATE, api, emit, { state: 'NY' }).values.value.state).toBe('NY');
    expect(new CalculatorModel(ESTATE, api, emit, { state: 'XX' }).values.value.state).toBe('');
  });

  it('refuses invalid inputs locally: field errors, svc-error invalid_input, no request', async () => {
    const { fetch } = stubFetch(() => json(200, {}));
    const model = new CalculatorModel(RMD, api, emit);
    model.setValue('balance', '-5');
    await model.calculate();
    expect(fetch).not.toHaveBeenCalled();
    expect(model.fieldErrors.value).toEqual({
      balance: 'Enter an amount of zero or more',
      age: 'Enter your age, e.g. 75',
    });
    expect(emitted).toEqual([
      { type: 'svc-error', payload: expect.objectContaining({ reason: 'invalid_input' }) },
    ]);
  });

  it('stores the server result and emits svc-result with it; an edit makes the preview current again', async () => {
    const server = {
      resultId: 'res_9',
      calculator: 'rmd',
      state: null,
      inputs: { balance: 100_000, age: 75 },
      outputs: { rmd: 4_065.04 },
      ruleSet: { id: 'r', taxYear: 2026, effectiveDate: '2026-01-01' },
      lineItems: [],
      notes: [],
      disclaimer: 'd',
      createdAt: '2026-01-01T00:00:00Z',
    };
    stubFetch(() => json(200, server));
    const model = new CalculatorModel(RMD, api, emit);
    model.setValue('balance', '100000');
    model.setValue('age', '75');
    await model.calculate();
    expect(model.result.value).toEqual(server);
    const { lineItems: _l, notes: _n, disclaimer: _d, createdAt: _c, ...payload } = server;
    expect(emitted).toEqual([{ type: 'svc-result', payload }]);
    model.setValue('age', '76');
    expect(model.result.value).toBeUndefined();
  });

  it('shows and emits a server refusal', async () => {
    stubFetch(() => apiError(429, 'RATE_LIMITED'));
    const model = new CalculatorModel(RMD, api, emit);
    model.setValue('balance', '100000');
    model.setValue('age', '75');
    await model.calculate();
    expect(model.error.value).toBeTruthy();
    expect(model.busy.value).toBe(false);
    expect(emitted).toEqual([
      { type: 'svc-error', payload: expect.objectContaining({ reason: 'rate_limited' }) },
    ]);
  });
});

describe('LeadModel', () => {
  const result = signal<{ resultId: string; state: string | null } | undefined>({
    resultId: 'res_1',
    state: 'NY',
  });

  function filled() {
    const lead = new LeadModel('estate-tax', api, emit, result, signal(TEST_CONSENT));
    lead.setValue('name', ' Zoë Ødegård ');
    lead.setValue('email', 'zoe@example.com');
    return lead;
  }

  it('offers the calculator’s state', () => {
    expect(filled().values.value.state).toBe('NY');
  });

  it('needs consent before it sends anything', async () => {
    const { fetch } = stubLeadFetch(() => json(201, { leadId: 'lead_1' }));
    const lead = filled();
    await lead.submit();
    expect(fetch).not.toHaveBeenCalled();
    expect(lead.fieldErrors.value).toEqual({ consent: expect.stringMatching(/Tick the box/) });
  });

  it('sends the contract’s body and emits svc-lead after 201', async () => {
    const { requests } = stubLeadFetch(() => json(201, { leadId: 'lead_1', status: 'new' }));
    const lead = filled();
    lead.consent.value = true;
    await lead.submit();
    expect(await requests[0]!.json()).toEqual({
      calculator: 'estate-tax',
      resultId: 'res_1',
      name: 'Zoë Ødegård',
      email: 'zoe@example.com',
      state: 'NY',
      consent: true,
      consentVersionId: TEST_CONSENT.versionId,
      website: '',
      // The proof of work, solved when send was pressed (EASY_CHALLENGE's answer is 3).
      altcha: btoa(JSON.stringify({ ...EASY_CHALLENGE, number: 3 })),
      language: 'en',
    });
    expect(lead.leadId.value).toBe('lead_1');
    expect(emitted).toEqual([
      { type: 'svc-lead', payload: { leadId: 'lead_1', calculator: 'estate-tax', resultId: 'res_1' } },
    ]);
  });

  it('reuses the Idempotency-Key when the same answers are sent again, and not after an edit', async () => {
    const { requests } = stubLeadFetch(
      () => apiError(500, 'INTERNAL_ERROR'),
      () => apiError(500, 'INTERNAL_ERROR'),
      () => json(201, { leadId: 'lead_1' }),
    );
    const lead = filled();
    lead.consent.value = true;
    await lead.submit();
    await lead.submit();
    lead.setValue('phone', '555-0100');
    await lead.submit();
    const keys = requests.map((r) => r.headers.get('idempotency-key'));
    expect(keys[0]).toBe(keys[1]);
    expect(keys[2]).not.toBe(keys[0]);
    expect(emitted.map((e) => e.type)).toEqual(['svc-error', 'svc-error', 'svc-lead']);
  });

  it('a challenge the server calls too easy (stockpiled) is replaced by a freshly solved one; same key', async () => {
    const { requests, challenges } = stubLeadFetch(
      () => apiError(400, 'INVALID_CHALLENGE', [{ path: 'altcha', message: 'too_easy' }]),
      () => json(201, { leadId: 'lead_1' }),
    );
    const lead = filled();
    lead.consent.value = true;
    await lead.submit();
    expect(challenges).toHaveLength(2);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.headers.get('idempotency-key')).toBe(requests[1]!.headers.get('idempotency-key'));
    expect(lead.leadId.value).toBe('lead_1');
    expect(emitted.map((e) => e.type)).toEqual(['svc-lead']);
  });

  it('a price rising faster than it solves never refuses the visitor: after three too-easy answers the lead is sent to be held, and received', async () => {
    const tooEasy = () => apiError(400, 'INVALID_CHALLENGE', [{ path: 'altcha', message: 'too_easy' }]);
    // An attacker adds leads during each solve, so every solution arrives priced for a quieter hour.
    const { requests } = stubLeadFetch(tooEasy, tooEasy, tooEasy, () => json(201, { leadId: 'lead_1' }));
    const lead = filled();
    lead.consent.value = true;
    await lead.submit();
    expect(requests).toHaveLength(4);
    const bodies = await Promise.all(requests.map((r) => r.clone().json()));
    expect(bodies.slice(0, 3).every((b) => typeof b.altcha === 'string')).toBe(true);
    // The last send carries no proof of work: the server stores it held (`no_proof_of_work`).
    expect(bodies[3]).not.toHaveProperty('altcha');
    expect(new Set(requests.map((r) => r.headers.get('idempotency-key'))).size).toBe(1);
    expect(lead.leadId.value).toBe('lead_1');
    expect(emitted.map((e) => e.type)).toEqual(['svc-lead']);
  });

  it('surfaces field problems from the server', async () => {
    stubLeadFetch(() => apiError(400, 'INVALID_REQUEST', [{ path: 'email', message: 'Invalid email' }]));
    const lead = filled();
    lead.consent.value = true;
    await lead.submit();
    expect(lead.fieldErrors.value).toEqual({ email: 'Invalid email' });
    expect(emitted[0]!.payload).toMatchObject({ reason: 'invalid_input' });
  });
});

it('an older session without a consent version sends no version id (the server assumes the current one)', async () => {
  const { requests } = stubFetch(() => json(201, { leadId: 'lead_2' }));
  const lead = new LeadModel('rmd', api, emit, signal(undefined), signal(undefined));
  lead.setValue('name', 'Ann');
  lead.setValue('email', 'ann@example.com');
  lead.setValue('state', 'NY');
  lead.consent.value = true;
  await lead.submit();
  expect(await requests[0]!.json()).not.toHaveProperty('consentVersionId');
});

it('ApiError keeps the payload the host receives', () => {
  const e = new ApiError({ reason: 'network', message: 'm' });
  expect(e.payload).toEqual({ reason: 'network', message: 'm' });
});
