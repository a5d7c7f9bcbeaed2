import { useEffect, useState } from 'preact/hooks';
import type { Delivery, Endpoint } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { useAction } from '../components/action.ts';
import { Badge, CopyButton, Empty, ErrorNote, TableWrap } from '../components/ui.tsx';
import { formatDateTime, formatRelative } from '../format.ts';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { DeliveryInspector } from './delivery-inspector.tsx';

const TONE = { pending: 'neutral', succeeded: 'good', failed: 'bad', cancelled: 'neutral' } as const;

const EVENT_HELP: Record<string, string> = {
  'lead.created': 'A visitor sent their details.',
  'lead.updated': 'A lead’s status changed.',
  'result.created': 'A visitor finished a calculation.',
  'rules.updated':
    'The law under a calculator you use changed (a figure added, confirmed or corrected). Never sent to a CRM.',
  'leads.digest':
    'Past the plan’s daily figure: one summary an hour instead of one event per lead (lead.created endpoints get it too).',
};

/** Checkboxes for the event types; at least one stays chosen. */
export function EventChoice(props: {
  idPrefix: string;
  types: string[];
  value: string[];
  onChange: (v: string[]) => void;
}) {
  return (
    <fieldset class="field">
      <legend>Events</legend>
      {props.types.map((t) => (
        <label key={t} class="check" for={`${props.idPrefix}-${t}`}>
          <input
            id={`${props.idPrefix}-${t}`}
            type="checkbox"
            checked={props.value.includes(t)}
            onChange={(e) =>
              props.onChange(
                (e.target as HTMLInputElement).checked
                  ? [...props.value, t]
                  : props.value.filter((v) => v !== t),
              )
            }
          />
          <span>
            <span class="check-label">{t}</span>
            <span class="check-help">{EVENT_HELP[t] ?? ''}</span>
          </span>
        </label>
      ))}
    </fieldset>
  );
}

/** A signing secret, shown once with a copy button. */
export function SecretOnce(props: { secret: string; onDone: () => void }) {
  return (
    <div class="notice" role="status">
      <p>Your signing secret. Copy it now into your receiver: it is not shown again.</p>
      <div class="secret">
        <code data-testid="webhook-secret">{props.secret}</code>
        <CopyButton text={props.secret} label="Copy secret" />
      </div>
      <button type="button" class="button button-small" onClick={props.onDone}>
        I have stored the secret
      </button>
    </div>
  );
}

function Deliveries(props: { endpoint: Endpoint; version: number }) {
  const e = props.endpoint;
  const { data, error, reload } = useResource(
    () => api.get(`webhooks/${encodeURIComponent(e.id)}/deliveries`, { limit: 10 }),
    [e.id, props.version],
  );
  const action = useAction();
  const [inspected, setInspected] = useState<string | null>(null);
  const pending = data?.data.some((d) => d.status === 'pending');
  // While a delivery is on its way, look again every two seconds.
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(reload, 2000);
    return () => clearTimeout(timer);
  }, [data, pending, reload]);
  const replay = async (d: Delivery) => {
    if (await action.run(() => api.post(`webhook-deliveries/${encodeURIComponent(d.id)}/replay`))) reload();
  };
  if (error) return <ErrorNote error={error} />;
  if (!data) return null;
  if (data.data.length === 0)
    return <Empty title="No deliveries yet">Send a test event to see one arrive.</Empty>;
  return (
    <>
      <TableWrap label={`Recent deliveries to ${e.url}`}>
        <table class="table table-stack">
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col">Attempts</th>
              <th scope="col">Response</th>
              <th scope="col">When</th>
              <th scope="col">Next retry</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((d) => {
              const last = d.log.at(-1);
              return (
                <tr key={d.id}>
                  <td>
                    <code>{d.type}</code> {d.test ? <Badge>test</Badge> : null}
                  </td>
                  <td data-label="Status">
                    <Badge tone={TONE[d.status]}>{d.status}</Badge>
                  </td>
                  <td class="num" data-label="Attempts">
                    {d.attempts}
                  </td>
                  <td class="num" data-label="Response">
                    {last ? (last.statusCode ?? last.error ?? '—') : '—'}
                  </td>
                  <td class="num nowrap" data-label="When">
                    {formatRelative(d.createdAt)}
                  </td>
                  <td class="num nowrap" data-label="Next retry">
                    {d.status === 'pending' && d.nextAttemptAt ? (
                      <time dateTime={d.nextAttemptAt}>{formatDateTime(d.nextAttemptAt)}</time>
                    ) : (
                      '—'
                    )}
                  </td>
                  <td class="actions">
                    <button type="button" class="button button-small" onClick={() => setInspected(d.id)}>
                      Inspect<span class="visually-hidden"> {d.type} delivery</span>
                    </button>{' '}
                    {canManage() && d.status !== 'pending' ? (
                      <button
                        type="button"
                        class="button button-small"
                        disabled={action.busy}
                        onClick={() => replay(d)}
                      >
                        Replay<span class="visually-hidden"> {d.type} delivery</span>
                      </button>
                    ) : null}
                  </td>
                </tr>
              );
            })}
          </tbody>
        </table>
      </TableWrap>
      <ErrorNote error={action.error} />
      <DeliveryInspector
        delivery={data.data.find((d) => d.id === inspected) ?? null}
        onClose={() => setInspected(null)}
      />
    </>
  );
}

/** One endpoint: its events, on/off, secret roll, test event, delete, and its recent deliveries. */
export function EndpointCard(props: { endpoint: Endpoint; types: string[]; onChanged: () => void }) {
  const e = props.endpoint;
  const [editing, setEditing] = useState(false);
  const [events, setEvents] = useState(e.events);
  const [secret, setSecret] = useState<string | null>(null);
  const [version, setVersion] = useState(0);
  const action = useAction();
  const manage = canManage();
  const path = `webhooks/${encodeURIComponent(e.id)}` as const;
  const change = async (work: () => Promise<unknown>) => {
    const done = await action.run(work);
    if (done) props.onChanged();
    return done;
  };
  const roll = async () => {
    const rolled = await action.run(() => api.post(`${path}/roll-secret`, { overlapSeconds: 86_400 }));
    if (rolled) {
      setSecret(rolled.secret);
      props.onChanged();
    }
  };
  const test = async () => {
    if (await action.run(() => api.post(`${path}/test`))) setVersion(version + 1);
  };
  const remove = () =>
    window.confirm(`Delete the endpoint ${e.url} with its delivery log? It receives nothing more.`) &&
    change(() => api.delete(path));
  return (
    <section class="card endpoint" aria-label={`Endpoint ${e.url}`}>
      <div class="endpoint-head">
        <div class="endpoint-title">
          <h2 class="endpoint-url">
            <code>{e.url}</code>
          </h2>
          {e.description ? <p class="muted small">{e.description}</p> : null}
        </div>
        <Badge tone={e.status === 'enabled' ? 'good' : 'warn'}>{e.status === 'enabled' ? 'on' : 'off'}</Badge>
      </div>
      {e.status === 'disabled' && e.disabledReason ? (
        <p class="muted small">Off: {e.disabledReason}.</p>
      ) : null}
      {editing ? (
        <form
          class="stack"
          onSubmit={async (ev) => {
            ev.preventDefault();
            if (await change(() => api.patch(path, { events }))) setEditing(false);
          }}
        >
          <EventChoice idPrefix={`${e.id}-ev`} types={props.types} value={events} onChange={setEvents} />
          <div class="button-row">
            <button type="submit" class="button button-primary" disabled={events.length === 0 || action.busy}>
              Save events
            </button>
            <button type="button" class="button" onClick={() => setEditing(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <ul class="chips-inline">
          {e.events.map((t) => (
            <li key={t}>
              <Badge tone="accent">{t}</Badge>
            </li>
          ))}
          {e.includeTest ? (
            <li>
              <Badge>with test data</Badge>
            </li>
          ) : null}
        </ul>
      )}
      {e.previousSecretValidUntil ? (
        <p class="muted small">
          The previous secret also signs until {new Date(e.previousSecretValidUntil).toLocaleString('en-US')}.
        </p>
      ) : null}
      {secret ? <SecretOnce secret={secret} onDone={() => setSecret(null)} /> : null}
      {manage && !editing ? (
        <div class="card-actions">
          <button type="button" class="button button-small" disabled={action.busy} onClick={test}>
            Send test event
          </button>
          <button type="button" class="button button-small" onClick={() => setEditing(true)}>
            Edit events
          </button>
          <button type="button" class="button button-small" disabled={action.busy} onClick={roll}>
            Roll secret
          </button>
          <button
            type="button"
            class="button button-small"
            disabled={action.busy}
            onClick={() => change(() => api.patch(path, { enabled: e.status !== 'enabled' }))}
          >
            {e.status === 'enabled' ? 'Turn off' : 'Turn on'}
          </button>
          <button
            type="button"
            class="button button-small button-danger"
            disabled={action.busy}
            onClick={remove}
          >
            Delete
          </button>
        </div>
      ) : null}
      <ErrorNote error={action.error} />
      <h3>Recent deliveries</h3>
      <Deliveries endpoint={e} version={version} />
    </section>
  );
}
