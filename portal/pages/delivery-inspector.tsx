import { useEffect, useRef } from 'preact/hooks';
import type { Attempt, Delivery } from '../../server/routes/portal/types.ts';
import { Badge } from '../components/ui.tsx';
import { formatDateTime } from '../format.ts';

const headerText = (headers: Record<string, string>) =>
  Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}`)
    .join('\n');

/** A body as text: JSON re-indented so a person can read it, anything else as it came. */
function bodyText(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}

function Block(props: { title: string; label: string; text: string; note?: string | undefined }) {
  return (
    <div class="inspect-block">
      <h4>{props.title}</h4>
      {/* biome-ignore lint/a11y/noNoninteractiveTabindex: a scrolling region must be reachable by keyboard (WCAG 2.1.1) */}
      <section class="code" aria-label={props.label} tabIndex={0}>
        <pre>{props.text || '(empty)'}</pre>
      </section>
      {props.note ? <p class="muted small">{props.note}</p> : null}
    </div>
  );
}

/** The headers and body of one side of an attempt, as stored (credentials already redacted). */
function Exchange(props: {
  side: 'Request' | 'Response';
  attempt: number;
  exchange: { headers: Record<string, string>; body: string; truncated: boolean };
}) {
  const { side, attempt, exchange } = props;
  return (
    <>
      <Block
        title={`${side} headers`}
        label={`${side} headers, attempt ${attempt}`}
        text={headerText(exchange.headers)}
      />
      <Block
        title={`${side} body`}
        label={`${side} body, attempt ${attempt}`}
        text={bodyText(exchange.body)}
        note={exchange.truncated ? 'Only the first 4 KB is kept.' : undefined}
      />
    </>
  );
}

function AttemptView(props: { a: Attempt }) {
  const { a } = props;
  return (
    <section class="inspect-attempt" aria-label={`Attempt ${a.attempt}`}>
      <h3>
        Attempt {a.attempt}{' '}
        {a.response ? (
          <Badge tone={a.response.statusCode < 300 ? 'good' : 'bad'}>HTTP {a.response.statusCode}</Badge>
        ) : (
          <Badge tone="bad">no answer</Badge>
        )}
      </h3>
      <p class="muted small">
        {formatDateTime(a.startedAt)} · {a.durationMs.toLocaleString('en-US')} ms
        {a.error ? ` · ${a.error}` : ''}
      </p>
      {a.request ? (
        <Exchange side="Request" attempt={a.attempt} exchange={a.request} />
      ) : (
        <p class="muted small">This attempt was logged before requests were kept.</p>
      )}
      {a.response ? <Exchange side="Response" attempt={a.attempt} exchange={a.response} /> : null}
    </section>
  );
}

/**
 * The delivery inspector: every attempt of one delivery with the request sent and the response
 * received, as a firm debugging its receiver needs them. Credentials, cookies and signatures were
 * redacted before they were stored. A native modal <dialog>: focus moves in, Escape closes, focus
 * returns to the button that opened it.
 */
export function DeliveryInspector(props: {
  delivery: Delivery | null;
  onClose: () => void;
  /** A CRM destination that is off: its pending deliveries wait for it, not for a time. */
  waiting?: boolean;
}) {
  const ref = useRef<HTMLDialogElement>(null);
  const d = props.delivery;
  useEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (d && !dialog.open) dialog.showModal();
    if (!d && dialog.open) dialog.close();
  }, [d]);
  return (
    <dialog ref={ref} class="dialog dialog-wide" aria-labelledby="inspect-title" onClose={props.onClose}>
      {d ? (
        <>
          <div class="dialog-head">
            <h2 id="inspect-title">
              <code>{d.type}</code> delivery
            </h2>
            <button type="button" class="button button-small" onClick={() => ref.current?.close()}>
              Close
            </button>
          </div>
          <p class="muted small">
            {d.status === 'pending' && props.waiting
              ? 'Waits until the destination is turned on.'
              : d.status === 'pending' && d.nextAttemptAt
                ? `Next attempt ${formatDateTime(d.nextAttemptAt)}.`
                : `Status: ${d.status}.`}{' '}
            Credentials, cookies and signatures are shown as [redacted]; they are never stored.
          </p>
          {d.log.length === 0 ? <p>No attempt yet.</p> : null}
          {[...d.log].reverse().map((a) => (
            <AttemptView key={a.attempt} a={a} />
          ))}
        </>
      ) : null}
    </dialog>
  );
}
