import { CONSENT_TEXT, type LeadModel, type LeadValues } from '../lead-model.ts';

type Lead = InstanceType<typeof LeadModel>;

const FIELDS: {
  name: keyof LeadValues;
  label: string;
  type: string;
  autoComplete: string;
  required: boolean;
}[] = [
  { name: 'name', label: 'Name', type: 'text', autoComplete: 'name', required: true },
  { name: 'email', label: 'Email', type: 'email', autoComplete: 'email', required: true },
  { name: 'phone', label: 'Phone (optional)', type: 'tel', autoComplete: 'tel', required: false },
  {
    name: 'state',
    label: 'State (two letters)',
    type: 'text',
    autoComplete: 'address-level1',
    required: true,
  },
];

/** "Talk to an attorney": name, email, phone, state, explicit consent, and a honeypot for bots. */
export function LeadForm({ lead }: { lead: Lead }) {
  if (lead.leadId.value) {
    return (
      <p class="thanks" role="status">
        Thank you — the firm will be in touch.
      </p>
    );
  }
  const values = lead.values.value;
  return (
    <form
      class="lead"
      aria-labelledby="lead-title"
      onSubmit={(e) => {
        e.preventDefault();
        void lead.submit();
      }}
    >
      <h3 id="lead-title">Talk to an attorney about this result</h3>
      {FIELDS.map((f) => (
        <div class="field" key={f.name}>
          <label for={`lead-${f.name}`}>{f.label}</label>
          <input
            id={`lead-${f.name}`}
            type={f.type}
            required={f.required}
            autoComplete={f.autoComplete}
            maxLength={f.name === 'state' ? 2 : 200}
            value={values[f.name]}
            aria-invalid={lead.fieldErrors.value[f.name] ? 'true' : undefined}
            onInput={(e) => lead.setValue(f.name, e.currentTarget.value)}
          />
          {lead.fieldErrors.value[f.name] && <p class="field-error">{lead.fieldErrors.value[f.name]}</p>}
        </div>
      ))}
      <div class="honeypot" aria-hidden="true">
        <label for="lead-website">Website</label>
        <input
          id="lead-website"
          tabIndex={-1}
          autoComplete="off"
          value={values.website}
          onInput={(e) => lead.setValue('website', e.currentTarget.value)}
        />
      </div>
      <label class="consent">
        <input
          type="checkbox"
          required
          checked={lead.consent.value}
          onChange={(e) => {
            lead.consent.value = e.currentTarget.checked;
          }}
        />
        <span>{CONSENT_TEXT}</span>
      </label>
      <button type="submit" disabled={lead.busy.value}>
        Send
      </button>
      {lead.error.value && (
        <p class="error" role="alert">
          {lead.error.value}
        </p>
      )}
    </form>
  );
}
