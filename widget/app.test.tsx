import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { estateTaxCore } from '../calculators/estate-tax/core.ts';
import { executorCommissionCore } from '../calculators/executor-commission/core.ts';
import { runCalculator } from '../calculators/index.ts';
import { inheritanceTaxCore } from '../calculators/inheritance-tax/core.ts';
import { probateFeesCore } from '../calculators/probate-fees/core.ts';
import { rmdCore } from '../calculators/rmd/core.ts';
import { App } from './app.tsx';
import { formatOutput } from './format.ts';
import { estateTaxForm } from './forms/estate-tax.ts';
import { executorCommissionForm } from './forms/executor-commission.ts';
import { inheritanceTaxForm } from './forms/inheritance-tax.ts';
import { probateFeesForm } from './forms/probate-fees.ts';
import { rmdForm } from './forms/rmd.ts';
import type { WidgetCalculator } from './forms/types.ts';
import { fakeBridge, json, stubFetch, TEST_CONSENT } from './testing.ts';

const CALCS: Record<string, WidgetCalculator> = {
  'estate-tax': { core: estateTaxCore, form: estateTaxForm },
  'inheritance-tax': { core: inheritanceTaxCore, form: inheritanceTaxForm },
  'probate-fees': { core: probateFeesCore, form: probateFeesForm },
  'executor-commission': { core: executorCommissionCore, form: executorCommissionForm },
  rmd: { core: rmdCore, form: rmdForm },
};

let root: HTMLElement;

beforeEach(() => {
  root = document.createElement('div');
  document.body.appendChild(root);
});
afterEach(() => {
  render(null, root);
  root.remove();
  vi.unstubAllGlobals();
});

const $ = <T extends Element = HTMLElement>(selector: string) => root.querySelector<T>(selector);

function type(selector: string, value: string) {
  const el = $<HTMLInputElement | HTMLSelectElement>(selector)!;
  el.value = value;
  el.dispatchEvent(new Event(el.tagName === 'SELECT' ? 'change' : 'input', { bubbles: true }));
}

describe('widget page', () => {
  it.each(['estate-tax', 'inheritance-tax', 'probate-fees', 'executor-commission', 'rmd'])(
    'labels every control of %s',
    (slug) => {
      render(<App calc={CALCS[slug]!} bridge={fakeBridge().bridge} />, root);
      const controls = [...root.querySelectorAll('input, select')].filter((c) => !c.closest('.honeypot'));
      expect(controls.length).toBeGreaterThan(0);
      for (const control of controls) {
        const label = control.id && root.querySelector(`label[for="${control.id}"]`);
        expect(label, `label for ${control.outerHTML}`).toBeTruthy();
      }
    },
  );

  it('waits for its session, then enables Calculate', async () => {
    const fake = fakeBridge();
    render(<App calc={CALCS.rmd!} bridge={fake.bridge} />, root);
    const button = () => $<HTMLButtonElement>('form.calc button[type=submit]')!;
    expect(button().disabled).toBe(true);
    expect(button().textContent).toBe('Connecting…');
    fake.init();
    await vi.waitFor(() => expect(button().disabled).toBe(false));
    expect(button().textContent).toBe('Calculate');
  });

  it('says why when the loader reports that the session was refused', async () => {
    const fake = fakeBridge();
    render(<App calc={CALCS.rmd!} bridge={fake.bridge} />, root);
    fake.refuse('domain_not_allowed', 'Not licensed for this website.');
    await vi.waitFor(() => expect($('.notice')?.textContent).toBe('Not licensed for this website.'));
  });

  it('previews as the visitor types, then stores, reports svc-result and takes a lead', async () => {
    const fake = fakeBridge();
    render(<App calc={CALCS['estate-tax']!} bridge={fake.bridge} />, root);
    fake.init('token-1', {
      name: 'Smith & Lee LLP',
      accent: '#7a1f1f',
      phone: '+1 (212) 555-0143',
      email: 'office@smithlee.com',
    });
    type('#f-estateValue', '16000000');
    expect($<HTMLInputElement>('#f-estateValue')!.value).toBe('16,000,000');
    type('#f-state', 'NY');
    const local = runCalculator('estate-tax', { estateValue: 16_000_000, state: 'NY' });
    if (!local.ok) throw new Error('valid inputs refused');
    const total = formatOutput('totalTax', local.result.outputs.totalTax);
    await vi.waitFor(() => expect($('[data-output="totalTax"]')?.textContent).toBe(total));
    expect($('.result .status')?.textContent).toMatch(/Preview/);
    // The notes qualify the figures: in view, after them, before the folded "How this was worked out".
    const notes = $('.result .notes');
    const breakdown = $('.result details.breakdown');
    expect(notes?.closest('details')).toBeNull();
    expect(breakdown!.compareDocumentPosition(notes!) & Node.DOCUMENT_POSITION_PRECEDING).toBeTruthy();
    expect($('.result .figures')!.nextElementSibling).toBe(notes);
    expect($('.headline')?.textContent).toMatch(
      /^Your estate would owe about \$[\d,]+00 in New York estate tax; no federal tax\.$/,
    );
    const legend = [...root.querySelectorAll('.legend li')].map(
      (li) => li.querySelector('.slice-amount')?.textContent,
    );
    expect(legend).toEqual([
      formatOutput('x', 16_000_000 - (local.result.outputs.totalTax as number)),
      formatOutput('x', local.result.outputs.federalTax),
      formatOutput('x', local.result.outputs.stateTax),
    ]);
    expect(root.textContent).not.toMatch(/unverified|Estimate \(no closed form\)/);

    const stored = {
      resultId: 'res_1',
      calculator: 'estate-tax',
      state: 'NY',
      inputs: local.inputs,
      outputs: local.result.outputs,
      lineItems: local.result.lineItems,
      notes: local.result.notes,
      ruleSet: local.result.ruleSet,
      disclaimer: local.result.disclaimer,
      createdAt: '2026-01-01T00:00:00Z',
    };
    stubFetch(
      () => json(200, stored),
      () => json(201, { leadId: 'lead_1', status: 'new' }),
    );
    await vi.waitFor(() => expect($<HTMLButtonElement>('form.calc button')!.disabled).toBe(false));
    $<HTMLFormElement>('form.calc')!.requestSubmit();
    await vi.waitFor(() => expect(fake.of('svc-result')).toHaveLength(1));
    expect(fake.of('svc-result')[0]).toMatchObject({ resultId: 'res_1', outputs: local.result.outputs });
    await vi.waitFor(() => expect($('.result .status')?.textContent).toBe('Your estimate'));
    // The rules in words, as the calculator named them (for the clock's date of death).
    expect(root.textContent).toContain(`Rules used: ${local.result.ruleSet.label}.`);
    expect(local.result.ruleSet.label).toMatch(
      /^Federal rules for deaths in 20\d\d; New York rules for deaths in 20\d\d$/,
    );

    await vi.waitFor(() => expect($('#lead-state')).toBeTruthy());
    expect($<HTMLInputElement>('#lead-state')!.value).toBe('NY');
    type('#lead-name', 'Zoë');
    // The firm's consent version from the session, verbatim; the widget's own line apart from it.
    expect($('label[for="lead-consent"]')?.textContent).toBe(TEST_CONSENT.text);
    expect($('form.lead .fine-print')?.textContent).toMatch(/not legal advice/);
    type('#lead-email', 'zoe@example.com');
    const consent = $<HTMLInputElement>('#lead-consent')!;
    consent.checked = true;
    consent.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect($<HTMLInputElement>('#lead-consent')!.checked).toBe(true));
    $<HTMLFormElement>('form.lead')!.requestSubmit();
    await vi.waitFor(() =>
      expect(fake.of('svc-lead')).toEqual([
        { leadId: 'lead_1', calculator: 'estate-tax', resultId: 'res_1' },
      ]),
    );
    await vi.waitFor(() => expect($('.lead.done')).toBeTruthy());
    // The thank-you says how to reach the firm sooner, as its settings give it, as links.
    expect($('.lead.done')!.textContent).toContain('To talk sooner: +1 (212) 555-0143 · office@smithlee.com');
    expect($<HTMLAnchorElement>('.lead.done a[href^="tel:"]')!.getAttribute('href')).toBe('tel:+12125550143');
    expect($<HTMLAnchorElement>('.lead.done a[href^="mailto:"]')!.getAttribute('href')).toBe(
      'mailto:office@smithlee.com',
    );
  });

  it('shows what to fix next to the field, in plain words, and opens Advanced when the problem is there', async () => {
    const fake = fakeBridge();
    render(<App calc={CALCS['estate-tax']!} bridge={fake.bridge} />, root);
    fake.init();
    await vi.waitFor(() => expect($<HTMLButtonElement>('form.calc button')!.disabled).toBe(false));
    expect($('.result.empty')?.textContent).toMatch(/Answer the questions/);
    $<HTMLFormElement>('form.calc')!.requestSubmit();
    await vi.waitFor(() =>
      expect($('#f-estateValue-error')?.textContent).toBe('Enter the estate’s value, e.g. 2,500,000'),
    );
    expect($('#f-estateValue')?.getAttribute('aria-describedby')).toContain('f-estateValue-error');
    expect($<HTMLDetailsElement>('details.advanced')!.open).toBe(false);
  });
});
