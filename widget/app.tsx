import { useModel } from '@preact/signals';
import type { JSX } from 'preact';
import { useMemo, useState } from 'preact/hooks';
import { getCalculator } from '../calculators/index.ts';
import type { Bridge } from './bridge.ts';
import { type Field, fieldsOf, WidgetModel } from './model.ts';

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const MONEY_KEYS =
  /Tax$|Fee$|fees$|Fees$|commission|^rmd$|estateValue|bequest|netInheritance|balance|Deduction|Exclusion/;

function formatOutput(key: string, value: unknown): string {
  if (typeof value === 'number' && key === 'effectiveRate') return `${(value * 100).toFixed(2)} %`;
  if (typeof value === 'number' && MONEY_KEYS.test(key)) return usd.format(value);
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  return String(value);
}

function FieldInput({
  field,
  value,
  error,
  onInput,
}: {
  field: Field;
  value: unknown;
  error?: string;
  onInput: (v: unknown) => void;
}) {
  const id = `f-${field.name}`;
  const describedBy = error ? `${id}-error` : undefined;
  let control: JSX.Element;
  if (field.kind === 'select') {
    control = (
      <select
        id={id}
        value={String(value ?? '')}
        aria-describedby={describedBy}
        onChange={(e) => onInput(e.currentTarget.value)}
      >
        <option value="">Choose…</option>
        {field.options?.map((o) => (
          <option key={o} value={o}>
            {o}
          </option>
        ))}
      </select>
    );
  } else if (field.kind === 'boolean') {
    control = (
      <input
        id={id}
        type="checkbox"
        checked={value === true}
        onChange={(e) => onInput(e.currentTarget.checked)}
      />
    );
  } else {
    control = (
      <input
        id={id}
        type={field.kind === 'date' ? 'date' : 'text'}
        inputMode={field.kind === 'money' || field.kind === 'number' ? 'decimal' : undefined}
        value={String(value ?? '')}
        aria-invalid={error ? 'true' : undefined}
        aria-describedby={describedBy}
        onInput={(e) => onInput(e.currentTarget.value)}
      />
    );
  }
  return (
    <div class={`field field-${field.kind}`}>
      <label for={id}>
        {field.label}
        {field.kind === 'money' ? ' ($)' : ''}
      </label>
      {control}
      {error && (
        <p class="field-error" id={describedBy}>
          {error}
        </p>
      )}
    </div>
  );
}

function LeadForm({
  onSubmit,
  busy,
  consentText,
}: {
  onSubmit: (lead: Record<string, string>) => void;
  busy: boolean;
  consentText: string;
}) {
  const [lead, setLead] = useState({ name: '', email: '', phone: '', state: '', website: '' });
  const [consent, setConsent] = useState(false);
  const set = (key: keyof typeof lead) => (e: { currentTarget: HTMLInputElement }) =>
    setLead({ ...lead, [key]: e.currentTarget.value });
  return (
    <form
      class="lead"
      onSubmit={(e) => {
        e.preventDefault();
        if (consent) onSubmit({ ...lead, state: lead.state.toUpperCase(), consentText });
      }}
    >
      <h3>Talk to an attorney about this result</h3>
      <div class="field">
        <label for="lead-name">Name</label>
        <input id="lead-name" required autoComplete="name" value={lead.name} onInput={set('name')} />
      </div>
      <div class="field">
        <label for="lead-email">Email</label>
        <input
          id="lead-email"
          type="email"
          required
          autoComplete="email"
          value={lead.email}
          onInput={set('email')}
        />
      </div>
      <div class="field">
        <label for="lead-phone">Phone (optional)</label>
        <input id="lead-phone" type="tel" autoComplete="tel" value={lead.phone} onInput={set('phone')} />
      </div>
      <div class="field">
        <label for="lead-state">State (two letters)</label>
        <input id="lead-state" required maxLength={2} value={lead.state} onInput={set('state')} />
      </div>
      <div class="honeypot" aria-hidden="true">
        <label for="lead-website">Website</label>
        <input
          id="lead-website"
          tabIndex={-1}
          autoComplete="off"
          value={lead.website}
          onInput={set('website')}
        />
      </div>
      <label class="consent">
        <input
          type="checkbox"
          checked={consent}
          onChange={(e) => setConsent(e.currentTarget.checked)}
          required
        />{' '}
        {consentText}
      </label>
      <button type="submit" disabled={busy || !consent}>
        Send
      </button>
    </form>
  );
}

export function App({ slug, bridge }: { slug: string; bridge: Bridge | undefined }) {
  const model = useModel(() => new WidgetModel(slug, bridge));
  const fields = useMemo(() => fieldsOf(slug), [slug]);
  const calculator = getCalculator(slug);
  const instant = model.instant.value;
  const result = model.result.value;
  const outputs = result?.outputs ?? (instant.ok ? instant.result.outputs : undefined);
  const labels = calculator?.outputLabels ?? {};
  const consentText = 'I agree to be contacted about my estate plan by this firm.';
  return (
    <main>
      <h2>{calculator?.name ?? slug}</h2>
      <form
        class="calc"
        onSubmit={(e) => {
          e.preventDefault();
          void model.calculate();
        }}
      >
        {fields.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={model.values.value[field.name]}
            error={model.fieldErrors.value[field.name]}
            onInput={(v) => model.setValue(field.name, v)}
          />
        ))}
        <button type="submit" disabled={model.busy.value || !model.credentials.value}>
          {model.credentials.value ? 'Calculate' : 'Connecting…'}
        </button>
      </form>
      {outputs && (
        <section class="result" aria-live="polite">
          <h3>{result ? 'Your estimate' : 'Preview'}</h3>
          <dl>
            {Object.keys(labels)
              .filter((key) => key in outputs && outputs[key] !== false)
              .map((key) => [key, outputs[key]] as const)
              .map(([key, value]) => (
                <div key={key} class={key === 'totalTax' || key === 'totalFees' ? 'total' : ''}>
                  <dt>{labels[key]}</dt>
                  <dd data-output={key}>{formatOutput(key, value)}</dd>
                </div>
              ))}
          </dl>
          {result && (
            <button type="button" class="secondary" onClick={() => void model.downloadReport()}>
              Download PDF report
            </button>
          )}
        </section>
      )}
      {model.error.value && (
        <p class="error" role="alert">
          {model.error.value}
        </p>
      )}
      {result && !model.leadId.value && (
        <LeadForm
          busy={model.busy.value}
          consentText={consentText}
          onSubmit={(lead) => void model.submitLead(lead as never)}
        />
      )}
      {model.leadId.value && <p class="thanks">Thank you — the firm will be in touch.</p>}
      <p class="disclaimer">{calculator?.disclaimer}</p>
    </main>
  );
}
