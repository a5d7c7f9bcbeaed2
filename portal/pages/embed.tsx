import { useEffect, useRef, useState } from 'preact/hooks';
import { US_STATE_NAMES, US_STATES } from '../../calculators/limits.ts';
import { api } from '../api.ts';
import { Card, CodeBlock, ErrorNote, Link, PageHeader, TableWrap } from '../components/ui.tsx';
import { CALCULATORS } from '../format.ts';
import { session$ } from '../session.ts';
import {
  SNIPPET_OPTIONS,
  type SnippetOption,
  type SnippetOptions,
  snippetOf,
  stylesheetOf,
} from '../snippet.ts';
import { useResource } from '../use-resource.ts';

const EVENTS = [
  { type: 'svc-ready', payload: '{ calculator }', when: 'The widget has loaded and is ready for input.' },
  { type: 'svc-resize', payload: '{ height }', when: 'Its height changed; the loader resizes the frame.' },
  {
    type: 'svc-result',
    payload: '{ resultId, calculator, state, inputs, outputs, ruleSet }',
    when: 'The server computed and stored a result.',
  },
  {
    type: 'svc-lead',
    payload: '{ leadId, calculator, resultId? }',
    when: 'A visitor’s contact request was stored.',
  },
  {
    type: 'svc-error',
    payload: '{ reason, message }',
    when: 'Something failed; the message says what to do.',
  },
];

function listenerOf(embedUrl: string) {
  return `// Simplest, and it works whenever this runs, even before loader.js (loaded with async) has:
// each widget's events bubble from its container up to the document.
document.addEventListener('svc-lead', (event) => {
  console.log('new lead', event.detail.leadId, 'from widget', event.target.dataset.svcWidgetId);
});

// In code that runs after loader.js has loaded, window.Svc.on does the same (it throws before):
// window.Svc.on('svc-lead', (payload, { widgetId }) => console.log(payload.leadId, widgetId));

// Or listen to raw messages yourself: accept only the embed host, and only your own frames.
window.addEventListener('message', (event) => {
  if (event.origin !== '${new URL(embedUrl).origin}') return;
  const frames = [...document.querySelectorAll('[data-svc-calculator] iframe')];
  if (!frames.some((frame) => frame.contentWindow === event.source)) return;
  const { type, payload } = event.data ?? {};
  if (type === 'svc-result') console.log('result', payload.resultId, payload.outputs);
});`;
}

/** `svc-lead` into Google Analytics 4 (gtag.js) and Google Tag Manager (the data layer): what a web developer asks first. */
const ANALYTICS = `// Google Analytics 4 (gtag.js already on the page): one event per lead, no personal data.
document.addEventListener('svc-lead', (event) => {
  gtag('event', 'generate_lead', { calculator: event.detail.calculator });
});

// Google Tag Manager: push to the data layer; trigger a tag on the custom event "svc_lead".
document.addEventListener('svc-lead', (event) => {
  window.dataLayer = window.dataLayer || [];
  window.dataLayer.push({ event: 'svc_lead', svcCalculator: event.detail.calculator });
});`;

/** One option's control: a select for a list of values, a text box otherwise; the state is a select of states. */
function OptionControl(props: { o: SnippetOption; value: string; onChange: (v: string) => void }) {
  const { o } = props;
  const id = `option-${o.option}`;
  const set = (e: Event) => props.onChange((e.target as HTMLInputElement).value);
  const choices =
    o.values ??
    (o.option === 'state'
      ? [
          { value: '', label: 'None (the visitor chooses)' },
          ...US_STATES.map((s) => ({ value: s, label: US_STATE_NAMES[s] })),
        ]
      : undefined);
  const bad = !choices && props.value.trim() !== '' && !o.pattern?.test(props.value.trim());
  return (
    <div class="field">
      <label for={id}>{o.label}</label>
      {choices ? (
        <select id={id} value={props.value || choices[0]?.value} onChange={set}>
          {choices.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      ) : (
        <input id={id} value={props.value} onInput={set} aria-invalid={bad || undefined} spellcheck={false} />
      )}
      <p class={bad ? 'error-note' : 'help'}>{bad ? `Not used: ${o.help}` : o.help}</p>
    </div>
  );
}

let seenCount = 0;
interface Seen {
  id: number;
  type: string;
  detail: unknown;
  at: string;
}

export function EmbedPage() {
  const embedUrl = session$.value!.urls.embed;
  const licenses = useResource(() => api.get('licenses'));
  const [selected, setSelected] = useState<string[]>(['estate-tax']);
  const [key, setKey] = useState('');
  const [options, setOptions] = useState<SnippetOptions>({});
  const [previewKey, setPreviewKey] = useState<string | null>(null);
  const [seen, setSeen] = useState<Seen[]>([]);
  const [previewHeight, setPreviewHeight] = useState(620);
  // The frame takes the preview page's height (every chosen calculator at its real height), set
  // through the CSSOM: the portal's CSP allows no style attributes.
  useEffect(() => {
    frame.current?.style.setProperty('height', `${previewHeight}px`);
  }, [previewHeight, previewKey]);
  const frame = useRef<HTMLIFrameElement>(null);
  const publishable = licenses.data?.data.find((l) => l.publishableKey)?.publishableKey ?? '';
  const dataKey = publishable || key.trim();

  useEffect(() => {
    const onMessage = (event: MessageEvent) => {
      // The preview page is on this origin and posts only here; anything else is ignored.
      if (event.origin !== window.location.origin || event.source !== frame.current?.contentWindow) return;
      const data = event.data as { source?: string; type?: string; detail?: unknown };
      if (data?.source !== 'svc-preview' || typeof data.type !== 'string') return;
      if (data.type === 'preview-height') {
        if (typeof data.detail === 'number') setPreviewHeight(Math.min(Math.max(data.detail, 200), 6000));
        return;
      }
      if (data.type === 'svc-resize') return;
      setSeen((list) =>
        [
          { id: ++seenCount, type: data.type!, detail: data.detail, at: new Date().toLocaleTimeString() },
          ...list,
        ].slice(0, 20),
      );
    };
    window.addEventListener('message', onMessage);
    return () => window.removeEventListener('message', onMessage);
  }, []);

  const toggle = (slug: string, on: boolean) =>
    setSelected(on ? [...selected, slug] : selected.filter((s) => s !== slug));
  const chosen = selected.length ? selected : ['estate-tax'];
  const snippet = snippetOf(embedUrl, dataKey, chosen, options);
  const domains = [...new Set((licenses.data?.data ?? []).flatMap((l) => l.domains.map((d) => d.unicode)))];

  return (
    <div class="page">
      <PageHeader
        title="Embed code"
        lead="Paste one snippet into your site where the calculator should appear."
      />
      <ErrorNote error={licenses.error} />
      <div class="grid-2">
        <Card title="1. Choose calculators" id="choose">
          <div class="stack">
            <fieldset class="field">
              <legend class="visually-hidden">Calculators</legend>
              {CALCULATORS.map((c) => (
                <label key={c.slug} class="check">
                  <input
                    type="checkbox"
                    checked={selected.includes(c.slug)}
                    onChange={(e) => toggle(c.slug, (e.target as HTMLInputElement).checked)}
                  />
                  <span class="check-label">{c.name}</span>
                </label>
              ))}
            </fieldset>
            {publishable ? null : (
              <div class="field">
                <label for="data-key">Your license key</label>
                <input
                  id="data-key"
                  placeholder="SVC-XXXXX-…"
                  autocomplete="off"
                  spellcheck={false}
                  value={key}
                  onInput={(e) => setKey((e.target as HTMLInputElement).value)}
                />
                <p class="help">
                  The key you received with your license; it stays in this page (it goes into the snippet and
                  the preview).
                </p>
              </div>
            )}
          </div>
        </Card>
        <Card title="2. Choose how it looks" id="options">
          <div class="field-grid">
            {SNIPPET_OPTIONS.map((o) => (
              <OptionControl
                key={o.option}
                o={o}
                value={options[o.option] ?? ''}
                onChange={(v) => setOptions({ ...options, [o.option]: v })}
              />
            ))}
          </div>
        </Card>
      </div>
      <Card title="3. Copy the snippet" id="snippet">
        <CodeBlock code={snippet} label="HTML" />
        <p class="help">
          It works on these domains (and on localhost, for testing):{' '}
          {domains.length ? <strong>{domains.join(', ')}</strong> : <strong>none yet</strong>}.{' '}
          <Link href="/portal/licenses">Change the allowed domains</Link>
        </p>
        <details class="strict-csp">
          <summary>Your site has a strict Content-Security-Policy?</summary>
          <p class="help">
            Without <code>'unsafe-inline'</code> for styles, browsers ignore the <code>style</code> attribute
            that keeps the calculator's room while the page loads, and the text below it jumps when the
            calculator arrives. Put these rules in your own stylesheet instead; the rest of the snippet works
            unchanged, as the loader sets its heights in a way such a policy allows.
          </p>
          <CodeBlock code={stylesheetOf(chosen, options.lang)} label="CSS" />
        </details>
      </Card>
      <Card
        title="Live preview"
        id="preview"
        description="The real loader, running on this portal as a development host."
      >
        <div class="preview-bar">
          <button
            type="button"
            class="button button-primary"
            disabled={!dataKey}
            onClick={() => {
              setSeen([]);
              setPreviewKey(`${dataKey}|${selected.join()}|${Date.now()}`);
            }}
          >
            {previewKey ? 'Reload preview' : 'Show preview'}
          </button>
          {!dataKey ? <span class="muted small">Enter your license key above to preview.</span> : null}
        </div>
        {previewKey ? (
          <iframe
            ref={frame}
            key={previewKey}
            class="preview-frame"
            title="Widget preview"
            src={`/portal/preview?${new URLSearchParams({
              calculators: (selected.length ? selected : ['estate-tax']).join(','),
              key: dataKey,
              ...Object.fromEntries(Object.entries(options).filter(([, v]) => v)),
            })}`}
          />
        ) : null}
        {previewKey ? (
          <TableWrap label="Events seen">
            <table class="table" aria-label="Events from the preview">
              <thead>
                <tr>
                  <th scope="col">Time</th>
                  <th scope="col">Event</th>
                  <th scope="col">Payload</th>
                </tr>
              </thead>
              <tbody>
                {seen.length === 0 ? (
                  <tr>
                    <td colSpan={3} class="muted">
                      Events appear here as you use the preview.
                    </td>
                  </tr>
                ) : (
                  seen.map((s) => (
                    <tr key={s.id}>
                      <td class="num nowrap">{s.at}</td>
                      <td>
                        <code>{s.type}</code>
                      </td>
                      <td class="payload">
                        <code>{JSON.stringify(s.detail).slice(0, 160)}</code>
                      </td>
                    </tr>
                  ))
                )}
              </tbody>
            </table>
          </TableWrap>
        ) : null}
      </Card>
      <Card title="Events your page can listen to" id="events">
        <TableWrap label="Event reference">
          <table class="table">
            <thead>
              <tr>
                <th scope="col">Event</th>
                <th scope="col">Payload</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {EVENTS.map((e) => (
                <tr key={e.type}>
                  <td>
                    <code>{e.type}</code>
                  </td>
                  <td>
                    <code>{e.payload}</code>
                  </td>
                  <td>{e.when}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
        <CodeBlock code={listenerOf(embedUrl)} label="JavaScript listener" />
        <h3>Send leads to Google Analytics 4 or Google Tag Manager</h3>
        <CodeBlock code={ANALYTICS} label="JavaScript: svc-lead to GA4 and GTM" />
      </Card>
    </div>
  );
}
