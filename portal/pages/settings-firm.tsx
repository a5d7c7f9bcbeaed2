import { useEffect, useRef, useState } from 'preact/hooks';
import type { FirmSettings } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { useAction } from '../components/action.ts';
import { Badge, Card, ErrorNote, Loading, PageHeader } from '../components/ui.tsx';
import { accentContrast } from '../contrast.ts';
import { formatDateTime } from '../format.ts';
import { canManage, session$ } from '../session.ts';
import { useResource } from '../use-resource.ts';

const DEFAULT_ACCENT = '#4f46e5';
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

/** The windows offered (the API takes any whole number of months from 3 to 84). */
const RETENTION_MONTHS = [3, 6, 12, 18, 24, 36, 60, 84];

function FirmForm(props: {
  settings: FirmSettings;
  saved: boolean;
  onSaved: (s: FirmSettings) => void;
  onEdit: () => void;
}) {
  const s = props.settings;
  const [name, setName] = useState(s.name);
  const [consent, setConsent] = useState(s.consent?.text ?? '');
  const [emails, setEmails] = useState(s.alertEmails.join('\n'));
  const [accent, setAccent] = useState(s.accentColor ?? DEFAULT_ACCENT);
  const [retention, setRetention] = useState(s.leadRetentionMonths ? String(s.leadRetentionMonths) : '');
  const action = useAction();
  const manage = canManage();
  const validAccent = HEX.test(accent);
  const submit = async (event: Event) => {
    event.preventDefault();
    const alertEmails = emails.split(/[\s,;]+/).filter(Boolean);
    const body = {
      name,
      alertEmails,
      ...(consent.trim() !== (s.consent?.text ?? '') ? { consentText: consent } : {}),
      ...(accent.toLowerCase() !== (s.accentColor ?? DEFAULT_ACCENT) ? { accentColor: accent } : {}),
      ...((retention ? Number(retention) : null) !== s.leadRetentionMonths
        ? { leadRetentionMonths: retention ? Number(retention) : null }
        : {}),
    };
    const next = await action.run(() => api.patch('settings/firm', body));
    if (next) props.onSaved(next);
  };
  const fieldError = (path: string) => action.error?.details.find((d) => d.path === path)?.message;
  return (
    <form class="stack" onSubmit={submit} onInput={props.onEdit}>
      <fieldset class="stack plain-fieldset" disabled={!manage}>
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
          <label for="firm-alerts">Lead-alert addresses</label>
          <textarea
            id="firm-alerts"
            rows={3}
            aria-describedby="firm-alerts-help"
            value={emails}
            onInput={(e) => setEmails((e.target as HTMLTextAreaElement).value)}
          />
          <p class="help" id="firm-alerts-help">
            One address per line, up to 10. Each new lead is e-mailed to them within seconds.
          </p>
          {fieldError('alertEmails') ? <p class="error-note">{fieldError('alertEmails')}</p> : null}
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
          {validAccent ? (
            <div class="accent-grid">
              <AccentPreview accent={accent} />
              <ContrastCheck accent={accent} />
            </div>
          ) : (
            <p class="error-note">Expected a colour as #rrggbb.</p>
          )}
        </div>
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
            What a visitor agrees to before sending their details. Saving new words makes a new version; each
            lead keeps the version its visitor saw.
          </p>
          {fieldError('consentText') ? <p class="error-note">{fieldError('consentText')}</p> : null}
        </div>
      </fieldset>
      <ErrorNote error={action.error && action.error.details.length === 0 ? action.error : null} />
      {manage ? (
        <div class="button-row">
          <button type="submit" class="button button-primary" disabled={action.busy || !validAccent}>
            Save settings
          </button>
          {props.saved && !action.busy ? (
            <span class="success-note" role="status">
              Saved.
            </span>
          ) : null}
        </div>
      ) : null}
    </form>
  );
}

export function SettingsFirmPage() {
  const { data, error, reload } = useResource(() => api.get('settings/firm'));
  const [saved, setSaved] = useState(false);
  const onSaved = (next: FirmSettings) => {
    const session = session$.value;
    if (session) session$.value = { ...session, firm: { ...session.firm, name: next.name } };
    setSaved(true);
    reload();
  };
  return (
    <div class="page">
      <PageHeader title="Firm" lead="How your firm appears to visitors, and who hears about new leads." />
      {!canManage() ? <p class="notice">Viewers can see these settings but not change them.</p> : null}
      <ErrorNote error={error} />
      {!data ? (
        <Loading />
      ) : (
        <>
          <Card title="Firm settings" id="firm-settings">
            <FirmForm
              key={JSON.stringify(data)}
              settings={data}
              saved={saved}
              onSaved={onSaved}
              onEdit={() => setSaved(false)}
            />
          </Card>
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
                      {i === 0 ? <Badge tone="good">in force</Badge> : null}{' '}
                      <span class="muted small">{formatDateTime(v.createdAt)}</span>
                    </p>
                    <p class="version-text">{v.text}</p>
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
