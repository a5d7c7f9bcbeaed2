import type { ComponentChildren } from 'preact';
import { useEffect, useRef, useState } from 'preact/hooks';
import { DEFAULT_ACCENT } from '../../protocol/accent.ts';
import type { FirmSettings } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { useAction } from '../components/action.ts';
import { Badge, Card, ErrorNote, Loading, PageHeader } from '../components/ui.tsx';
import { accentContrast } from '../contrast.ts';
import { formatDateTime } from '../format.ts';
import { canManage, session$ } from '../session.ts';
import { useResource } from '../use-resource.ts';

const HEX = /^#[0-9a-f]{6}$/i;
const ratio = (n: number) => `${n.toFixed(1)}:1`;

/** A calculator button and link in the chosen accent, painted through the CSSOM (strict CSP). */
function AccentPreview(props: { accent: string }) {
  const ref = useRef<HTMLDivElement>(null);
  const c = accentContrast(props.accent);
  useEffect(() => {
    ref.current?.style.setProperty('--preview-accent', props.accent);
    ref.current?.style.setProperty('--preview-on-accent', c.onAccent);
  }, [props.accent, c.onAccent]);
  return (
    <div class="accent-preview" ref={ref} data-testid="accent-preview">
      <p class="accent-preview-title">Estate tax calculator</p>
      <span class="accent-preview-link">How is this calculated?</span>
      <span class="accent-preview-button">Calculate</span>
    </div>
  );
}

function ContrastCheck(props: { accent: string }) {
  const c = accentContrast(props.accent);
  return (
    <ul class="contrast-list" aria-live="polite">
      <li>
        <Badge tone={c.buttonsPass ? 'good' : 'bad'}>{ratio(c.buttons)}</Badge> Button text on this colour{' '}
        {c.buttonsPass ? 'reads well (needs 4.5:1).' : 'is hard to read (needs 4.5:1).'}
      </li>
      <li>
        <Badge tone={c.onWhitePass ? 'good' : 'warn'}>{ratio(c.onWhite)}</Badge> Links and focus rings on
        white {c.onWhitePass ? 'stand out (needs 3:1).' : 'are too faint (needs 3:1): choose a darker shade.'}
      </li>
    </ul>
  );
}

type Patch = Record<string, unknown>;

/** Which section said "Saved." last: kept by the page, as a section is rebuilt from the saved settings. */
interface SaveStatus {
  saved: string | null;
  setSaved: (id: string | null) => void;
}

interface SectionProps {
  settings: FirmSettings;
  onSaved: (s: FirmSettings) => void;
  status: SaveStatus;
}

/**
 * One section of Firm settings with its own Save: a change to the contact details never sends
 * the consent text or the alert list along, and each section says "Saved." on its own.
 */
function Section(props: {
  id: string;
  title: string;
  description: string;
  body: () => Patch | null;
  onSaved: (s: FirmSettings) => void;
  children: (fieldError: (path: string) => string | undefined) => ComponentChildren;
  valid?: boolean;
  status: SaveStatus;
}) {
  const action = useAction();
  const { saved, setSaved } = props.status;
  const manage = canManage();
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = props.body();
    const next = body ? await action.run(() => api.patch('settings/firm', body)) : undefined;
    if (!body || next) setSaved(props.id);
    if (next) props.onSaved(next);
  };
  const fieldError = (path: string) => action.error?.details.find((d) => d.path === path)?.message;
  return (
    <Card title={props.title} id={props.id} description={props.description}>
      <form class="stack" onSubmit={submit} onInput={() => setSaved(null)}>
        <fieldset class="stack plain-fieldset" disabled={!manage}>
          {props.children(fieldError)}
        </fieldset>
        <ErrorNote error={action.error && action.error.details.length === 0 ? action.error : null} />
        {manage ? (
          <div class="button-row">
            <button
              type="submit"
              class="button button-primary"
              disabled={action.busy || props.valid === false}
            >
              Save {props.title.toLowerCase()}
            </button>
            {saved === props.id && !action.busy ? (
              <span class="success-note" role="status">
                Saved.
              </span>
            ) : null}
          </div>
        ) : null}
      </form>
    </Card>
  );
}

function BrandSection(props: SectionProps) {
  const s = props.settings;
  const [name, setName] = useState(s.name);
  const [accent, setAccent] = useState(s.accentColor ?? DEFAULT_ACCENT);
  const validAccent = HEX.test(accent);
  const body = (): Patch | null => {
    const patch: Patch = {};
    if (name.trim() !== s.name) patch.name = name;
    if (accent.toLowerCase() !== (s.accentColor ?? DEFAULT_ACCENT)) patch.accentColor = accent;
    return Object.keys(patch).length > 0 ? patch : null;
  };
  return (
    <Section
      id="firm-brand"
      title="Name and brand"
      description="What visitors see on your calculators and result PDFs."
      body={body}
      onSaved={props.onSaved}
      status={props.status}
      valid={validAccent}
    >
      {() => (
        <>
          <div class="field">
            <label for="firm-name">Display name</label>
            <input
              id="firm-name"
              required
              maxLength={200}
              value={name}
              onInput={(e) => setName((e.target as HTMLInputElement).value)}
            />
            <p class="help">Shown on calculators, result PDFs and alert mails.</p>
          </div>
          <div class="field">
            <label for="firm-accent">Brand accent</label>
            <div class="accent-row">
              <input
                id="firm-accent"
                type="color"
                class="color-input"
                value={validAccent ? accent : DEFAULT_ACCENT}
                onInput={(e) => setAccent((e.target as HTMLInputElement).value)}
              />
              <input
                aria-label="Accent as hex"
                class="hex-input"
                maxLength={7}
                value={accent}
                onInput={(e) => setAccent((e.target as HTMLInputElement).value.trim())}
              />
            </div>
            {s.accentColor ? null : (
              <p class="help">Not chosen yet: your calculators and PDFs use this navy until you choose.</p>
            )}
            {validAccent ? (
              <div class="accent-grid">
                <AccentPreview accent={accent} />
                <ContrastCheck accent={accent} />
              </div>
            ) : (
              <p class="error-note">Expected a colour as #rrggbb.</p>
            )}
          </div>
        </>
      )}
    </Section>
  );
}

const CONTACT_FIELDS = [
  { key: 'phone', label: 'Phone', type: 'tel', placeholder: '+1 212 555 0143', max: 40 },
  { key: 'email', label: 'E-mail', type: 'email', placeholder: 'office@yourfirm.com', max: 254 },
  // Text, not `url`: "yourfirm.com" is what people type, and the server adds https://.
  { key: 'website', label: 'Web site', type: 'text', placeholder: 'yourfirm.com', max: 300 },
  {
    key: 'callToAction',
    label: 'Call to action',
    type: 'text',
    placeholder: 'Call us to discuss your estate plan',
    max: 120,
  },
] as const;

type ContactKey = (typeof CONTACT_FIELDS)[number]['key'] | 'address' | 'timeZone';

const TIME_ZONES: string[] = (() => {
  try {
    return (Intl as unknown as { supportedValuesOf(k: string): string[] }).supportedValuesOf('timeZone');
  } catch {
    return [];
  }
})();

function ContactSection(props: SectionProps) {
  const stored = props.settings.contact;
  const [values, setValues] = useState<Record<ContactKey, string>>({
    phone: stored.phone ?? '',
    email: stored.email ?? '',
    website: stored.website ?? '',
    callToAction: stored.callToAction ?? '',
    address: stored.address ?? '',
    timeZone: stored.timeZone ?? '',
  });
  const set = (key: ContactKey) => (e: Event) =>
    setValues({ ...values, [key]: (e.target as HTMLInputElement).value });
  const body = (): Patch | null => {
    const changed = Object.entries(values).filter(([k, v]) => v.trim() !== (stored[k as ContactKey] ?? ''));
    return changed.length > 0
      ? { contact: Object.fromEntries(changed.map(([k, v]) => [k, v.trim()])) }
      : null;
  };
  return (
    <Section
      id="firm-contact"
      title="Contact"
      description="How a visitor reaches you: printed on every page of the result PDF and shown after they send their details. Each field is optional."
      body={body}
      onSaved={props.onSaved}
      status={props.status}
    >
      {(fieldError) => (
        <>
          <div class="field-grid">
            {CONTACT_FIELDS.map((f) => (
              <div class="field" key={f.key}>
                <label for={`contact-${f.key}`}>{f.label}</label>
                <input
                  id={`contact-${f.key}`}
                  type={f.type}
                  inputMode={f.key === 'website' ? 'url' : undefined}
                  maxLength={f.max}
                  placeholder={f.placeholder}
                  value={values[f.key]}
                  onInput={set(f.key)}
                  aria-invalid={fieldError(`contact.${f.key}`) ? true : undefined}
                />
                {fieldError(`contact.${f.key}`) ? (
                  <p class="error-note">{fieldError(`contact.${f.key}`)}</p>
                ) : null}
              </div>
            ))}
          </div>
          <div class="field">
            <label for="contact-address">Office address</label>
            <textarea
              id="contact-address"
              rows={3}
              maxLength={300}
              value={values.address}
              onInput={set('address')}
            />
            <p class="help">Up to four lines, as on your letterhead.</p>
            {fieldError('contact.address') ? <p class="error-note">{fieldError('contact.address')}</p> : null}
          </div>
          <div class="field">
            <label for="contact-timeZone">Time zone</label>
            <select id="contact-timeZone" value={values.timeZone} onChange={set('timeZone')}>
              <option value="">UTC (not set)</option>
              {TIME_ZONES.map((z) => (
                <option key={z} value={z}>
                  {z.replaceAll('_', ' ')}
                </option>
              ))}
            </select>
            <p class="help">Times in lead-alert mails are given in this zone.</p>
            {fieldError('contact.timeZone') ? (
              <p class="error-note">{fieldError('contact.timeZone')}</p>
            ) : null}
          </div>
        </>
      )}
    </Section>
  );
}

function AlertsSection(props: SectionProps) {
  const s = props.settings;
  const [emails, setEmails] = useState(s.alertEmails.join('\n'));
  const body = (): Patch | null => {
    const alertEmails = emails.split(/[\s,;]+/).filter(Boolean);
    return alertEmails.join(',') === s.alertEmails.join(',') ? null : { alertEmails };
  };
  return (
    <Section
      id="firm-alerts-section"
      title="Alerts"
      description="Who hears about each new lead."
      body={body}
      onSaved={props.onSaved}
      status={props.status}
    >
      {(fieldError) => (
        <div class="field">
          <label for="firm-alerts">Lead-alert addresses</label>
          <textarea
            id="firm-alerts"
            rows={3}
            aria-describedby="firm-alerts-help"
            value={emails}
            onInput={(e) => setEmails((e.target as HTMLTextAreaElement).value)}
          />
          <p class="help" id="firm-alerts-help">
            One address per line, up to 10. Each new lead is e-mailed to them within seconds; a reply goes to
            the visitor.
          </p>
          {fieldError('alertEmails') ? <p class="error-note">{fieldError('alertEmails')}</p> : null}
        </div>
      )}
    </Section>
  );
}

/** The windows offered (the API takes any whole number of months from 3 to 84). */
const RETENTION_MONTHS = [3, 6, 12, 18, 24, 36, 60, 84];

function RetentionSection(props: SectionProps) {
  const s = props.settings;
  const [retention, setRetention] = useState(s.leadRetentionMonths ? String(s.leadRetentionMonths) : '');
  const body = (): Patch | null => {
    const months = retention ? Number(retention) : null;
    return months === s.leadRetentionMonths ? null : { leadRetentionMonths: months };
  };
  return (
    <Section
      id="firm-retention-section"
      title="Retention"
      description="How long enquiries that did not become clients are kept."
      body={body}
      onSaved={props.onSaved}
      status={props.status}
    >
      {(fieldError) => (
        <div class="field">
          <label for="firm-retention">Keep leads that did not become clients</label>
          <select
            id="firm-retention"
            aria-describedby="firm-retention-help"
            value={retention}
            onChange={(e) => setRetention((e.target as HTMLSelectElement).value)}
          >
            <option value="">Until you delete them</option>
            {RETENTION_MONTHS.map((m) => (
              <option key={m} value={String(m)}>
                {m % 12 === 0 ? `${m / 12} year${m === 12 ? '' : 's'}` : `${m} months`} after their last
                change
              </option>
            ))}
          </select>
          <p class="help" id="firm-retention-help">
            Leads not converted are erased this long after their last status change or note, with their
            calculation, consent record and deliveries. The activity page records how many.
          </p>
          {fieldError('leadRetentionMonths') ? (
            <p class="error-note">{fieldError('leadRetentionMonths')}</p>
          ) : null}
        </div>
      )}
    </Section>
  );
}

function ConsentSection(props: SectionProps) {
  const s = props.settings;
  const [consent, setConsent] = useState(s.consent?.text ?? '');
  const [consentEs, setConsentEs] = useState(s.consentEs?.text ?? '');
  const body = (): Patch | null => {
    const patch = {
      ...(consent.trim() !== (s.consent?.text ?? '') ? { consentText: consent } : {}),
      ...(consentEs.trim() !== (s.consentEs?.text ?? '') ? { consentTextEs: consentEs } : {}),
    };
    return Object.keys(patch).length ? patch : null;
  };
  return (
    <Section
      id="firm-consent-section"
      title="Consent"
      description="What a visitor agrees to before sending their details."
      body={body}
      onSaved={props.onSaved}
      status={props.status}
    >
      {(fieldError) => (
        <>
          <div class="field">
            <label for="firm-consent">Consent text</label>
            <textarea
              id="firm-consent"
              rows={4}
              maxLength={2000}
              placeholder={`I agree that ${s.name} may contact me by e-mail or by phone about my enquiry, and may keep the details I entered for that purpose.`}
              aria-describedby="firm-consent-help"
              value={consent}
              onInput={(e) => setConsent((e.target as HTMLTextAreaElement).value)}
            />
            <p class="help" id="firm-consent-help">
              Saving new words makes a new version; each lead keeps the version its visitor saw.
            </p>
            {fieldError('consentText') ? <p class="error-note">{fieldError('consentText')}</p> : null}
          </div>
          <div class="field">
            <label for="firm-consent-es">Consent text in Spanish</label>
            <textarea
              id="firm-consent-es"
              lang="es"
              rows={4}
              maxLength={2000}
              placeholder={`Autorizo a ${s.name} a comunicarse conmigo por correo electrónico o por teléfono sobre mi consulta y a conservar los datos que ingresé con ese fin.`}
              aria-describedby="firm-consent-es-help"
              value={consentEs}
              onInput={(e) => setConsentEs((e.target as HTMLTextAreaElement).value)}
            />
            <p class="help" id="firm-consent-es-help">
              {s.spanishConsent === 'english'
                ? 'Spanish-speaking visitors see your English consent text, with a line in Spanish saying it is in English, until you publish it in Spanish here.'
                : s.spanishConsent === 'default'
                  ? 'Spanish-speaking visitors see the default Spanish wording (shown in this field) while you use the default English one.'
                  : 'What a Spanish-speaking visitor agrees to. Saving new words makes a new version.'}
            </p>
            {s.spanishConsent === 'english' ? (
              <p class="notice" data-testid="spanish-consent-missing">
                Your consent text has no Spanish version: publish one so Spanish-speaking visitors read what
                they agree to in their language.
              </p>
            ) : null}
            {fieldError('consentTextEs') ? <p class="error-note">{fieldError('consentTextEs')}</p> : null}
          </div>
        </>
      )}
    </Section>
  );
}

export function SettingsFirmPage() {
  const { data, error, reload } = useResource(() => api.get('settings/firm'));
  const [saved, setSaved] = useState<string | null>(null);
  const status = { saved, setSaved };
  const onSaved = (next: FirmSettings) => {
    const session = session$.value;
    if (session) session$.value = { ...session, firm: { ...session.firm, name: next.name } };
    reload();
  };
  return (
    <div class="page">
      <PageHeader
        title="Firm"
        lead="How your firm appears to visitors, how they reach you, and who hears about new leads."
      />
      {!canManage() ? <p class="notice">Viewers can see these settings but not change them.</p> : null}
      <ErrorNote error={error} />
      {!data ? (
        <Loading />
      ) : (
        <>
          <BrandSection
            key={`${data.name}${data.accentColor}`}
            settings={data}
            onSaved={onSaved}
            status={status}
          />
          <ContactSection
            key={JSON.stringify(data.contact)}
            settings={data}
            onSaved={onSaved}
            status={status}
          />
          <AlertsSection key={data.alertEmails.join()} settings={data} onSaved={onSaved} status={status} />
          <RetentionSection
            key={String(data.leadRetentionMonths)}
            settings={data}
            onSaved={onSaved}
            status={status}
          />
          <ConsentSection
            key={`${data.consent?.version}/${data.consentEs?.version}`}
            settings={data}
            onSaved={onSaved}
            status={status}
          />
          <Card
            title="Consent versions"
            id="consent-versions"
            description="Newest first. Leads point at the exact words their visitor saw."
          >
            {data.consentVersions.length === 0 ? (
              <p class="muted">
                The default wording (shown in the field above) is used until you save your own.
              </p>
            ) : (
              <ol class="version-list">
                {data.consentVersions.map((v, i) => (
                  <li key={v.id} class="version-row">
                    <p class="version-meta">
                      <strong>Version {v.version}</strong>{' '}
                      <Badge>{v.language === 'es' ? 'Spanish' : 'English'}</Badge>{' '}
                      {data.consentVersions.findIndex((w) => w.language === v.language) === i ? (
                        <Badge tone="good">in force</Badge>
                      ) : null}{' '}
                      <span class="muted small">{formatDateTime(v.createdAt)}</span>
                    </p>
                    <p class="version-text" lang={v.language}>
                      {v.text}
                    </p>
                  </li>
                ))}
              </ol>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
