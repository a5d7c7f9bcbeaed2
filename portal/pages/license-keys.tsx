import { useState } from 'preact/hooks';
import type { PortalLicense, RolledKey } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { useAction } from '../components/action.ts';
import { CodeBlock, CopyButton, ErrorNote } from '../components/ui.tsx';
import { formatDateTime } from '../format.ts';
import { canManage, session$ } from '../session.ts';
import { snippetOf } from '../snippet.ts';

type Kind = RolledKey['kind'];

const OVERLAPS = [
  { seconds: 3600, label: '1 hour' },
  { seconds: 86_400, label: '24 hours (recommended)' },
  { seconds: 7 * 86_400, label: '7 days' },
  { seconds: 30 * 86_400, label: '30 days' },
  { seconds: 0, label: 'No overlap: stop the old key now' },
];

const NAME: Record<Kind, string> = { publishable: 'publishable key', secret: 'secret license key' };

function RollForm(props: {
  license: PortalLicense;
  kind: Kind;
  onRolled: (key: string, ends: string) => void;
}) {
  const [seconds, setSeconds] = useState(86_400);
  const action = useAction();
  const id = `${props.license.id}-${props.kind}-overlap`;
  const roll = async (event: Event) => {
    event.preventDefault();
    if (
      seconds === 0 &&
      !window.confirm(
        `Stop the current ${NAME[props.kind]} now? Every site still using it stops working until you paste the new one.`,
      )
    )
      return;
    const rolled = await action.run(() =>
      api.post(`licenses/${encodeURIComponent(props.license.id)}/roll-key`, {
        kind: props.kind,
        overlapSeconds: seconds,
      }),
    );
    if (rolled) props.onRolled(rolled.key, rolled.previousKeysEndAt);
  };
  return (
    <form class="inline-form roll-form" onSubmit={roll}>
      <div class="field grow">
        <label for={id}>Keep the old key working for</label>
        <select
          id={id}
          value={seconds}
          onChange={(e) => setSeconds(Number((e.target as HTMLSelectElement).value))}
        >
          {OVERLAPS.map((o) => (
            <option key={o.seconds} value={o.seconds}>
              {o.label}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" class={`button ${seconds === 0 ? 'button-danger' : ''}`} disabled={action.busy}>
        Issue new {NAME[props.kind]}
      </button>
      <ErrorNote error={action.error} />
    </form>
  );
}

/** Licenses → Keys: the publishable key with its paste-ready tag, the secret key's last four; both rollable. */
export function LicenseKeys(props: { license: PortalLicense; onChanged: () => void }) {
  const l = props.license;
  const [rolling, setRolling] = useState<Kind | null>(null);
  const [rolled, setRolled] = useState<{ kind: Kind; key: string; ends: string } | null>(null);
  const manage = canManage();
  const embedUrl = session$.value!.urls.embed;
  const onRolled = (kind: Kind) => (key: string, ends: string) => {
    setRolling(null);
    setRolled({ kind, key, ends });
    props.onChanged();
  };
  const rollButton = (kind: Kind) =>
    manage ? (
      <button
        type="button"
        class="button button-small"
        aria-expanded={rolling === kind}
        onClick={() => setRolling(rolling === kind ? null : kind)}
      >
        Roll<span class="visually-hidden"> {NAME[kind]}</span>
      </button>
    ) : null;
  return (
    <div class="key-list">
      <div class="key-row">
        <div class="key-main">
          <p class="key-title">Publishable key</p>
          <p class="muted small">
            Public by design: it goes into your pages and opens calculators on your domains only.
          </p>
          <code class="key-value" data-testid={`publishable-${l.id}`}>
            {l.publishableKey ?? '—'}
          </code>
        </div>
        <div class="key-actions">
          {l.publishableKey ? <CopyButton text={l.publishableKey} label="Copy key" /> : null}
          {rollButton('publishable')}
        </div>
      </div>
      {rolling === 'publishable' ? (
        <RollForm license={l} kind="publishable" onRolled={onRolled('publishable')} />
      ) : null}
      {l.publishableKey ? (
        <CodeBlock
          code={snippetOf(embedUrl, l.publishableKey, ['estate-tax'])}
          label="Paste-ready tag (HTML)"
        />
      ) : null}
      <div class="key-row">
        <div class="key-main">
          <p class="key-title">Secret license key</p>
          <p class="muted small">
            For plugins and servers only, never in a page. Shown in full once, when made.
          </p>
          <code class="key-value">SVC-…{l.keyLast4}</code>
        </div>
        <div class="key-actions">{rollButton('secret')}</div>
      </div>
      {rolling === 'secret' ? <RollForm license={l} kind="secret" onRolled={onRolled('secret')} /> : null}
      {rolled ? (
        <div class="notice" role="status">
          <p>
            New {NAME[rolled.kind]} is live.{' '}
            {rolled.ends > new Date().toISOString()
              ? `The old one keeps working until ${formatDateTime(rolled.ends)}.`
              : 'The old one has stopped.'}{' '}
            {rolled.kind === 'secret'
              ? 'Copy it now: it is not shown again. Paste it into your plugin’s settings.'
              : 'Update data-key on your site.'}
          </p>
          <div class="secret">
            <code data-testid="rolled-key">{rolled.key}</code>
            <CopyButton text={rolled.key} label="Copy key" />
          </div>
          <button type="button" class="button button-small" onClick={() => setRolled(null)}>
            Done
          </button>
        </div>
      ) : null}
      {(l.overlappingKeys ?? []).length > 0 ? (
        <ul class="overlap-list">
          {l.overlappingKeys!.map((k) => (
            <li key={`${k.kind}-${k.last4}`} class="muted small">
              Previous {NAME[k.kind]} …{k.last4} works until {formatDateTime(k.expiresAt)}
            </li>
          ))}
        </ul>
      ) : null}
    </div>
  );
}
