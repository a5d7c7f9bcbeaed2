import type { FirmInfo } from '../../protocol/index.ts';
import { STATE_CHOICES } from '../forms/states.ts';
import { lang, t, why } from '../i18n/t.ts';
import type { LeadModel, LeadValues } from '../lead-model.ts';

type Lead = InstanceType<typeof LeadModel>;

const FIELDS: {
  name: Exclude<keyof LeadValues, 'website' | 'state'>;
  label: string;
  type: string;
  auto: string;
}[] = [
  { name: 'name', label: 'Your name', type: 'text', auto: 'name' },
  { name: 'email', label: 'Email', type: 'email', auto: 'email' },
  { name: 'phone', label: 'Phone', type: 'tel', auto: 'tel' },
];

function Problem({ id, text }: { id: string; text: string | undefined }) {
  return text ? (
    <p class="field-error" id={id}>
      {t(text)}
    </p>
  ) : null;
}

/**
 * "Talk to the firm": name, email, phone, state, explicit consent, and a honeypot for bots. The
 * consent label is the firm's consent version from the embed session, verbatim; without one (no
 * session yet) the form waits rather than show words the firm did not publish.
 */
export function LeadForm({
  lead,
  firm,
  consent,
  consentLanguage,
}: {
  lead: Lead;
  firm: FirmInfo | undefined;
  consent: string | undefined;
  /** The consent's own language, when it differs from the widget's (the firm has no version in the visitor's). */
  consentLanguage?: string | undefined;
}) {
  const foreign = consentLanguage !== undefined && consentLanguage !== lang;
  if (lead.leadId.value) {
    const { phone, email } = firm ?? {};
    return (
      <section class="lead done" role="status">
        <h2>{t('Thank you')}</h2>
        <p>{t('{0} will be in touch soon about your estimate.', firm?.name ?? t('The firm'))}</p>
        {(phone || email) && (
          <p>
            {t('To talk sooner:')} {phone && <a href={`tel:${phone.replace(/[^\d+]/g, '')}`}>{phone}</a>}
            {phone && email && ' · '}
            {email && <a href={`mailto:${email}`}>{email}</a>}
          </p>
        )}
      </section>
    );
  }
  const values = lead.values.value;
  const errors = lead.fieldErrors.value;
  return (
    <form
      class="lead"
      aria-labelledby="lead-title"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        void lead.submit();
      }}
    >
      <h2 id="lead-title">{t('Talk to {0} about this result', firm?.name ?? t('an attorney'))}</h2>
      <div class="grid">
        {FIELDS.map((f) => (
          <div class="field" key={f.name}>
            <label for={`lead-${f.name}`}>
              {t(f.label)}
              {f.name === 'phone' && <span class="optional"> {t('optional')}</span>}
            </label>
            <input
              id={`lead-${f.name}`}
              type={f.type}
              required={f.name !== 'phone'}
              autoComplete={f.auto}
              maxLength={200}
              value={values[f.name]}
              aria-invalid={errors[f.name] ? 'true' : undefined}
              aria-describedby={errors[f.name] ? `lead-${f.name}-error` : undefined}
              onInput={(e) => lead.setValue(f.name, e.currentTarget.value)}
            />
            <Problem id={`lead-${f.name}-error`} text={errors[f.name]} />
          </div>
        ))}
        <div class="field">
          <label for="lead-state">{t('State')}</label>
          <select
            id="lead-state"
            required
            autoComplete="address-level1"
            value={values.state}
            aria-invalid={errors.state ? 'true' : undefined}
            onChange={(e) => lead.setValue('state', e.currentTarget.value)}
          >
            <option value="">{t('Choose…')}</option>
            {STATE_CHOICES.map((o) => (
              <option key={o.value} value={o.value}>
                {t(o.label)}
              </option>
            ))}
          </select>
          <Problem id="lead-state-error" text={errors.state} />
        </div>
      </div>
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
      <div class="field check consent">
        <input
          id="lead-consent"
          type="checkbox"
          required
          checked={lead.consent.value}
          aria-invalid={errors.consent ? 'true' : undefined}
          aria-describedby={errors.consent ? 'lead-consent-error' : undefined}
          onChange={(e) => {
            lead.consent.value = e.currentTarget.checked;
          }}
        />
        <label for="lead-consent" lang={foreign ? consentLanguage : undefined}>
          {consent}
        </label>
        {foreign && <p class="help">{t('consent:foreign')}</p>}
        <Problem id="lead-consent-error" text={errors.consent} />
      </div>
      <p class="fine-print">
        {t('This is not legal advice and does not create an attorney–client relationship.')}
      </p>
      <button type="submit" class="primary" disabled={lead.busy.value || !consent}>
        {t(lead.busy.value ? 'Sending…' : lead.retryable.value ? 'Try again' : 'Send my details')}
      </button>
      {lead.error.value && (
        <p class="error" role="alert">
          {why(lead.error.value)}
        </p>
      )}
    </form>
  );
}
