import { render } from 'preact';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { runCalculator } from '../calculators/index.ts';
import { App } from './app.tsx';
import { formatOutput } from './format.ts';
import { fakeBridge, json, stubFetch } from './testing.ts';

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
      render(<App slug={slug} bridge={fakeBridge().bridge} />, root);
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
    render(<App slug="rmd" bridge={fake.bridge} />, root);
    const button = () => $<HTMLButtonElement>('form.calc button[type=submit]')!;
    expect(button().disabled).toBe(true);
    expect(button().textContent).toBe('Connecting…');
    fake.init();
    await vi.waitFor(() => expect(button().disabled).toBe(false));
    expect(button().textContent).toBe('Calculate');
  });

  it('says why when the loader reports that the session was refused', async () => {
    const fake = fakeBridge();
    render(<App slug="rmd" bridge={fake.bridge} />, root);
    fake.refuse('domain_not_allowed', 'Not licensed for this website.');
    await vi.waitFor(() => expect($('.notice')?.textContent).toBe('Not licensed for this website.'));
  });

  it('previews as the visitor types, then stores, reports svc-result and takes a lead', async () => {
    const fake = fakeBridge();
    render(<App slug="estate-tax" bridge={fake.bridge} />, root);
    fake.init();
    type('#f-estateValue', '16000000');
    type('#f-state', 'NY');
    const local = runCalculator('estate-tax', { estateValue: 16_000_000, state: 'NY' });
    if (!local.ok) throw new Error('valid inputs refused');
    const total = formatOutput('totalTax', local.result.outputs.totalTax);
    await vi.waitFor(() => expect($('[data-output="totalTax"]')?.textContent).toBe(total));
    expect($('.result h3')?.textContent).toMatch(/Preview/);

    const stored = {
      resultId: 'res_1',
      calculator: 'estate-tax',
      state: 'NY',
      inputs: local.inputs,
      outputs: local.result.outputs,
      lineItems: local.result.lineItems,
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
    await vi.waitFor(() => expect($('.result h3')?.textContent).toBe('Your estimate'));

    await vi.waitFor(() => expect($('#lead-state')).toBeTruthy());
    expect($<HTMLInputElement>('#lead-state')!.value).toBe('NY');
    type('#lead-name', 'Zoë');
    type('#lead-email', 'zoe@example.com');
    const consent = $<HTMLInputElement>('.consent input')!;
    consent.checked = true;
    consent.dispatchEvent(new Event('change', { bubbles: true }));
    await vi.waitFor(() => expect($<HTMLInputElement>('.consent input')!.checked).toBe(true));
    $<HTMLFormElement>('form.lead')!.requestSubmit();
    await vi.waitFor(() =>
      expect(fake.of('svc-lead')).toEqual([
        { leadId: 'lead_1', calculator: 'estate-tax', resultId: 'res_1' },
      ]),
    );
    await vi.waitFor(() => expect($('.thanks')).toBeTruthy());
  });

  it('renders a readable message for an unknown calculator', () => {
    render(<App slug="nope" bridge={undefined} />, root);
    expect(root.textContent).toContain('nope');
  });
});
