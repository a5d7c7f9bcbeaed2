import { useState } from 'preact/hooks';
import { stateName } from '../../calculators/limits.ts';
import { defang } from '../../protocol/defang.ts';
import { quarantineReasonLabel } from '../../protocol/quarantine.ts';
import type { LeadDetail as Detail } from '../../server/routes/portal/types.ts';
import { api, type PortalError } from '../api.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import { Badge, Card, ErrorNote, Link, Loading, PageHeader } from '../components/ui.tsx';
import { calculatorName, formatDateTime } from '../format.ts';
import { navigate } from '../router.ts';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { LOST_REASONS, PriorityBadge, ValueCell } from './leads-table.tsx';
import { StatusPicker } from './status-picker.tsx';

/** Whom to call first, and why: the priority's reasons as the server wrote them, and the value. */
function PriorityCard({ lead }: { lead: Detail['lead'] }) {
  return (
    <Card title="Priority">
      <div class="grid-2 priority-grid">
        <div>
          <p>
            <PriorityBadge lead={lead} />
          </p>
          {lead.priority ? (
            <ul class="priority-reasons">
              {lead.priority.reasons.map((r) => (
                <li key={r}>{r}</li>
              ))}
            </ul>
          ) : (
            <p class="muted small">
              {lead.resultId
                ? 'The priority rules changed; this lead is rated again shortly.'
                : 'No calculation is linked to this lead, so there is nothing to rate.'}
            </p>
          )}
        </div>
        <div>
          <h3>Value</h3>
          <p>
            <ValueCell lead={lead} />
          </p>
        </div>
      </div>
    </Card>
  );
}

/** Notes by the firm's people, oldest first; owners and admins write, viewers read. */
function NotesCard(props: { leadId: string; notes: Detail['notes']; canWrite: boolean }) {
  const [notes, setNotes] = useState(props.notes);
  const [text, setText] = useState('');
  const [error, setError] = useState<PortalError | null>(null);
  const add = async (e: Event) => {
    e.preventDefault();
    if (!text.trim()) return;
    try {
      const { note } = await api.post(`leads/${encodeURIComponent(props.leadId)}/notes`, { text });
      setNotes([...notes, note]);
      setText('');
      setError(null);
    } catch (err) {
      setError(err as PortalError);
    }
  };
  return (
    <Card title="Notes" description="Calls, messages and next steps. Visible to everyone at the firm.">
      {notes.length ? (
        <ul class="note-list">
          {notes.map((n) => (
            <li key={n.id} class="note">
              <span class="muted small">
                {n.author.replace(/^user:/, '')} · {formatDateTime(n.createdAt)}
              </span>
              <p class="note-text">{n.text}</p>
            </li>
          ))}
        </ul>
      ) : (
        <p class="muted">No notes yet.</p>
      )}
      {props.canWrite ? (
        <form class="note-form" onSubmit={add}>
          <ErrorNote error={error} />
          <div class="field">
            <label for="note-text">Add a note</label>
            <textarea
              id="note-text"
              maxLength={4000}
              value={text}
              placeholder="Left a voicemail Tuesday."
              onInput={(e) => setText((e.target as HTMLTextAreaElement).value)}
            />
          </div>
          <p>
            <button type="submit" class="button button-primary" disabled={!text.trim()}>
              Add note
            </button>
          </p>
        </form>
      ) : null}
    </Card>
  );
}

/**
 * The consent as evidence: the exact words, the version and the SHA-256 of its text (so a copy
 * kept elsewhere can be checked), when, and the page where the visitor agreed.
 */
const LANGUAGES: Record<string, string> = { en: 'English', es: 'Spanish' };

function ConsentCard({ consent }: { consent: Detail['lead']['consent'] }) {
  return (
    <Card title="Consent">
      <blockquote class="consent">{consent.text}</blockquote>
      <Facts
        rows={[
          ['Agreed', formatDateTime(consent.agreedAt)],
          ['Version', consent.versionId ? <code>{consent.versionId}</code> : '—'],
          ['SHA-256', <code class="hash">{consent.sha256}</code>],
          ['Page', consent.page ? <span class="break">{consent.page}</span> : 'Not reported'],
          ['Language', LANGUAGES[consent.language] ?? consent.language],
        ]}
      />
      {consent.page ? <p class="muted small">The page as reported by the visitor’s browser.</p> : null}
      {consent.assumed ? (
        <p class="muted small">
          Sent by an older widget that did not say which version it showed: the version in force when the lead
          arrived is stored.
        </p>
      ) : null}
    </Card>
  );
}

function Facts(props: { rows: [string, preact.ComponentChildren][] }) {
  return (
    <dl class="lead-facts">
      {props.rows.map(([label, value]) => (
        <div class="lead-facts-row" key={label}>
          <dt>{label}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Figures of the linked result: the last "total" (or the first output) stands out as the headline. */
function ResultCard(props: { result: NonNullable<Detail['result']> }) {
  const { outputs, inputs } = props.result;
  const headline = [...outputs].reverse().find((f) => /total/i.test(f.label)) ?? outputs[0];
  return (
    <Card
      title="Their result"
      description={`${calculatorName(props.result.calculator)}${props.result.state ? ` · ${stateName(props.result.state)}` : ''} · computed ${formatDateTime(props.result.createdAt)}`}
    >
      {headline ? (
        <p class="headline-figure">
          <span class="muted">{headline.label}</span>
          <span class="num">{headline.value}</span>
        </p>
      ) : null}
      <div class="grid-2">
        <div>
          <h3>What they entered</h3>
          <Facts rows={inputs.map((f) => [f.label, <span class="num">{f.value}</span>])} />
        </div>
        <div>
          <h3>What the calculator showed</h3>
          <Facts
            rows={outputs
              .filter((f) => f !== headline)
              .map((f) => [f.label, <span class="num">{f.value}</span>])}
          />
        </div>
      </div>
      {props.result.rules ? (
        <p class="muted small lead-rules">
          Rule set <code>{props.result.rules.id}</code>, kept as computed: a later change to the rules does
          not alter this result. <Link href="/portal/rules#what-changed">What changed</Link>
        </p>
      ) : null}
    </Card>
  );
}

export function LeadDetailPage(props: { leadId: string }) {
  const [error, setError] = useState<PortalError | null>(null);
  const [confirming, setConfirming] = useState(false);
  const [lead, setLead] = useState<Detail['lead'] | null>(null);
  const {
    data,
    error: loadError,
    reload,
  } = useResource(() => api.get(`leads/${encodeURIComponent(props.leadId)}`), [props.leadId]);
  if (loadError)
    return (
      <div class="page">
        <PageHeader title="Lead" />
        <ErrorNote error={loadError} />
        <p>
          <Link href="/portal/leads">Back to all leads</Link>
        </p>
      </div>
    );
  if (!data) return <Loading />;
  const current = lead?.leadId === data.lead.leadId ? lead : data.lead;
  const manage = canManage();
  const release = async () => {
    try {
      await api.post(`leads/${encodeURIComponent(current.leadId)}/release`);
      setError(null);
      setLead(null);
      await reload();
    } catch (e) {
      setError(e as PortalError);
    }
  };
  return (
    <div class="page">
      <p class="breadcrumb">
        <Link href="/portal/leads">← All leads</Link>
      </p>
      <PageHeader
        title={defang(current.name)}
        lead={
          <>
            Asked to be contacted on {formatDateTime(current.createdAt)} after the{' '}
            {calculatorName(current.calculator)} calculator.
          </>
        }
      />
      <ErrorNote error={error} />
      {current.quarantined ? (
        <div class="notice notice-warn" role="status">
          <p>
            <strong>Held as possible spam</strong>
            {current.quarantineReasons?.length
              ? ` (${current.quarantineReasons.map(quarantineReasonLabel).join(', ')})`
              : ''}
            . No alert or webhook went out. Release it to treat it as a normal new lead.
          </p>
          {manage ? (
            <button type="button" class="button button-primary" onClick={release}>
              Release from quarantine
            </button>
          ) : null}
        </div>
      ) : null}
      <PriorityCard lead={current} />
      <div class="grid-2">
        <Card title="Contact">
          <Facts
            rows={[
              ['E-mail', <a href={`mailto:${current.email}`}>{current.email}</a>],
              ['Phone', current.phone ? <a href={`tel:${current.phone}`}>{current.phone}</a> : '—'],
              ['State', current.state ? stateName(current.state) : '—'],
              ['Language', LANGUAGES[current.language] ?? current.language],
              [
                'Status',
                manage ? (
                  <StatusPicker
                    lead={current}
                    label="Status"
                    onError={setError}
                    onChanged={(updated) => {
                      setError(null);
                      setLead({ ...current, ...updated });
                    }}
                  />
                ) : (
                  <Badge tone="accent">{current.status}</Badge>
                ),
              ],
              ...(current.status === 'lost' && current.lostReason
                ? ([['Lost because', LOST_REASONS[current.lostReason]]] as [
                    string,
                    preact.ComponentChildren,
                  ][])
                : []),
              ...(current.test
                ? ([['Source', <Badge>test data</Badge>]] as [string, preact.ComponentChildren][])
                : []),
            ]}
          />
        </Card>
        <ConsentCard consent={current.consent} />
      </div>
      {data.result ? (
        <ResultCard result={data.result} />
      ) : (
        <Card title="Their result">
          <p class="muted">No calculation is linked to this lead.</p>
        </Card>
      )}
      <NotesCard leadId={current.leadId} notes={data.notes} canWrite={data.canWrite} />
      {manage ? (
        <Card
          title="This person’s data"
          description="For a privacy request: export everything held about this e-mail address, or erase it."
        >
          <div class="button-row">
            <a
              class="button"
              href={`/v1/portal/leads/${encodeURIComponent(current.leadId)}/person.json`}
              download
            >
              Export their data (JSON)
            </a>
            <button type="button" class="button button-danger" onClick={() => setConfirming(true)}>
              Delete their data…
            </button>
          </div>
        </Card>
      ) : null}
      <ConfirmDialog
        open={confirming}
        title={`Delete all data about ${defang(current.name)}?`}
        confirmLabel="Delete permanently"
        danger
        onClose={() => setConfirming(false)}
        onConfirm={async () => {
          await api.delete(`leads/${encodeURIComponent(current.leadId)}`);
          setConfirming(false);
          navigate('/portal/leads', true);
        }}
      >
        <p>
          This erases the lead from {current.email}, the calculation it came from, and the alert e-mails and
          webhook events about it. It cannot be undone. Copies already delivered to your own systems are yours
          to erase.
        </p>
      </ConfirmDialog>
    </div>
  );
}
