import { useEffect, useState } from 'preact/hooks';
import type { PortalPaths } from '../../server/routes/portal/paths.ts';
import type { Delivery } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { useAction } from '../components/action.ts';
import { Badge, Card, Empty, ErrorNote, Link, Loading, PageHeader, TableWrap } from '../components/ui.tsx';
import { formatDateTime, formatRelative } from '../format.ts';
import { useResource } from '../use-resource.ts';
import { DeliveryInspector } from './delivery-inspector.tsx';

type Listing = PortalPaths['GET destinations'];
type Vendor = Listing['vendors'][number];
type Full = Extract<Listing['data'][number], { credentialLast4: string }>;
type Row = Listing['data'][number];

const TONE = { pending: 'warn', succeeded: 'good', failed: 'bad', cancelled: 'warn' } as const;
const isFull = (row: Row): row is Full => 'credentialLast4' in row;
const refused = (row: Row) =>
  row.status === 'disabled' && (row.disabledReason ?? '').startsWith('The CRM refused');

/** A setting's input: a few are choices, lists or mappings; the rest are text. */
const CHOICES: Record<string, string[]> = {
  region: ['us', 'eu', 'ca', 'au'],
  contactType: ['Prospect', 'Client', 'Other'],
};
const LABELS: Record<string, string> = {
  region: 'Region',
  source: 'Source name',
  portalId: 'Account id',
  formGuid: 'Form id',
  noteProperty: 'Note field',
  subscriptionTypeIds: 'Subscription type ids',
  figureFields: 'Figures to fields',
  contactType: 'Contact type',
  myDomain: 'My Domain host',
  leadSource: 'Lead Source',
};
const REQUIRED = new Set(['portalId', 'formGuid']);

/** The form's text values as the vendor's settings: lists of numbers, `figure=field` mappings. */
function settingsOf(vendor: string, values: Record<string, string>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [key, raw] of Object.entries(values)) {
    const text = raw.trim();
    if (!text) continue;
    if (key === 'subscriptionTypeIds')
      out[key] = text
        .split(/[\s,]+/)
        .filter(Boolean)
        .map(Number);
    else if (key === 'figureFields')
      out[key] = Object.fromEntries(
        text
          .split(/[\n,]+/)
          .map((pair) => pair.split('=').map((s) => s.trim()))
          .filter((p) => p.length === 2 && p[0] && p[1])
          .map(([figure, field]) => [figure, vendor === 'wealthbox' ? Number(field) : field]),
      );
    else out[key] = text;
  }
  return out;
}

function SettingField(props: {
  id: string;
  name: string;
  help: string;
  value: string;
  onInput: (v: string) => void;
}) {
  const { id, name, help } = props;
  const choices = CHOICES[name];
  const onInput = (e: Event) => props.onInput((e.target as HTMLInputElement).value);
  return (
    <div class="field">
      <label for={id}>
        {LABELS[name] ?? name}
        {REQUIRED.has(name) ? '' : ' (optional)'}
      </label>
      {choices ? (
        <select id={id} value={props.value || choices[0]} onChange={onInput} aria-describedby={`${id}-help`}>
          {choices.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      ) : name === 'figureFields' ? (
        <textarea
          id={id}
          rows={2}
          placeholder="estateValue=estate_value"
          value={props.value}
          onInput={onInput}
          aria-describedby={`${id}-help`}
        />
      ) : (
        <input
          id={id}
          required={REQUIRED.has(name)}
          value={props.value}
          onInput={onInput}
          aria-describedby={`${id}-help`}
        />
      )}
      <p class="help" id={`${id}-help`}>
        {help}
      </p>
    </div>
  );
}

function SalesforceCaveat() {
  return (
    <p class="notice notice-warn small">
      Salesforce answers every Web-to-Lead post with “OK”, even when it drops the lead: past 500 leads a day,
      or when the org requires reCAPTCHA (turn that off for Web-to-Lead). “Delivered” here means Salesforce
      took the request.
    </p>
  );
}

function AddDestination(props: { vendors: Vendor[]; onCreated: () => void }) {
  const [vendor, setVendor] = useState(props.vendors[0]?.vendor ?? 'clio-grow');
  const [credential, setCredential] = useState('');
  const [name, setName] = useState('');
  const [values, setValues] = useState<Record<string, string>>({});
  const [includeTest, setIncludeTest] = useState(false);
  const action = useAction();
  const v = props.vendors.find((x) => x.vendor === vendor) ?? props.vendors[0];
  if (!v) return null;
  const submit = async (event: Event) => {
    event.preventDefault();
    const body = {
      vendor: v.vendor,
      credential,
      settings: settingsOf(v.vendor, values),
      includeTest,
      ...(name.trim() ? { name: name.trim() } : {}),
    };
    if (!(await action.run(() => api.post('destinations', body)))) return;
    setCredential('');
    setName('');
    setValues({});
    props.onCreated();
  };
  return (
    <form class="stack" onSubmit={submit}>
      <div class="field">
        <label for="dst-vendor">CRM</label>
        <select
          id="dst-vendor"
          value={vendor}
          onChange={(e) => {
            setVendor((e.target as HTMLSelectElement).value as typeof vendor);
            setValues({});
          }}
        >
          {props.vendors.map((x) => (
            <option key={x.vendor} value={x.vendor}>
              {x.label}
            </option>
          ))}
        </select>
        <p class="help">
          What to set up on the CRM’s side is in{' '}
          <a href={v.docs[0]} rel="noreferrer" target="_blank">
            {v.label}’s documentation
          </a>
          ; each field below says where you find its value.
        </p>
      </div>
      {v.vendor === 'salesforce' ? <SalesforceCaveat /> : null}
      <div class="field">
        <label for="dst-credential">{v.credential.label}</label>
        <input
          id="dst-credential"
          type="password"
          autocomplete="off"
          required
          minLength={8}
          value={credential}
          aria-describedby="dst-credential-help"
          onInput={(e) => setCredential((e.target as HTMLInputElement).value)}
        />
        <p class="help" id="dst-credential-help">
          {v.credential.where} Stored encrypted; shown afterwards by its last four characters only.
        </p>
      </div>
      {Object.entries(v.settings).map(([key, help]) => (
        <SettingField
          key={`${v.vendor}-${key}`}
          id={`dst-${key}`}
          name={key}
          help={help}
          value={values[key] ?? ''}
          onInput={(value) => setValues({ ...values, [key]: value })}
        />
      ))}
      <div class="field">
        <label for="dst-name">Name (optional)</label>
        <input
          id="dst-name"
          maxLength={100}
          placeholder={`${v.label} intake`}
          value={name}
          onInput={(e) => setName((e.target as HTMLInputElement).value)}
        />
      </div>
      <label class="check" for="dst-test">
        <input
          id="dst-test"
          type="checkbox"
          checked={includeTest}
          onChange={(e) => setIncludeTest((e.target as HTMLInputElement).checked)}
        />
        <span>
          <span class="check-label">Also send test leads</span>
          <span class="check-help">Leads from development hosts, marked [TEST] in the note.</span>
        </span>
      </label>
      <ErrorNote error={action.error} />
      <div>
        <button type="submit" class="button button-primary" disabled={action.busy}>
          Add destination
        </button>
      </div>
    </form>
  );
}

function Deliveries(props: { destination: Full; version: number }) {
  const off = props.destination.status === 'disabled';
  const d = props.destination;
  const { data, error, reload } = useResource(
    () => api.get(`destinations/${encodeURIComponent(d.id)}/deliveries`, { limit: 10 }),
    [d.id, props.version],
  );
  const action = useAction();
  const [inspected, setInspected] = useState<string | null>(null);
  const pending = data?.data.some((x) => x.status === 'pending');
  useEffect(() => {
    if (!pending) return;
    const timer = setTimeout(reload, 2000);
    return () => clearTimeout(timer);
  }, [data, pending, reload]);
  const replay = async (x: Delivery) => {
    if (await action.run(() => api.post(`webhook-deliveries/${encodeURIComponent(x.id)}/replay`))) reload();
  };
  if (error) return <ErrorNote error={error} />;
  if (!data) return null;
  if (data.data.length === 0)
    return <Empty title="No deliveries yet">Send a test lead to see one arrive.</Empty>;
  return (
    <>
      <TableWrap label={`Recent deliveries to ${d.name ?? d.label}`}>
        <table class="table table-stack">
          <thead>
            <tr>
              <th scope="col">Attempts</th>
              <th scope="col">Status</th>
              <th scope="col">CRM’s answer</th>
              <th scope="col">When</th>
              <th scope="col">
                <span class="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((x) => {
              const last = x.log.at(-1);
              return (
                <tr key={x.id}>
                  <td data-label="Attempts">
                    {x.attempts} {x.test ? <Badge>test</Badge> : null}
                  </td>
                  <td data-label="Status">
                    <Badge tone={TONE[x.status]}>{x.status}</Badge>
                  </td>
                  <td class="answer" data-label="CRM’s answer">
                    {last ? `${last.statusCode ?? ''} ${last.error ?? ''}`.trim() || '—' : '—'}
                    {x.status === 'pending' ? (
                      <span class="muted small">
                        {' '}
                        ·{' '}
                        {off
                          ? 'waits until the destination is turned on'
                          : x.nextAttemptAt
                            ? `next ${formatDateTime(x.nextAttemptAt)}`
                            : 'on its way'}
                      </span>
                    ) : null}
                  </td>
                  <td class="num nowrap" data-label="When">
                    {formatRelative(x.createdAt)}
                  </td>
                  <td class="actions">
                    <button type="button" class="button button-small" onClick={() => setInspected(x.id)}>
                      Inspect<span class="visually-hidden"> delivery {x.id}</span>
                    </button>{' '}
                    {x.status === 'failed' || x.status === 'cancelled' ? (
                      <button
                        type="button"
                        class="button button-small"
                        disabled={action.busy}
                        onClick={() => replay(x)}
                      >
                        Replay<span class="visually-hidden"> delivery {x.id}</span>
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
        delivery={data.data.find((x) => x.id === inspected) ?? null}
        onClose={() => setInspected(null)}
        waiting={off}
      />
    </>
  );
}

/** A setting as a person reads it: lists joined, mappings as `figure → field`. */
function settingText(v: unknown): string {
  if (Array.isArray(v)) return v.join(', ');
  if (v && typeof v === 'object')
    return Object.entries(v as Record<string, unknown>)
      .map(([figure, field]) => `${figure} → ${String(field)}`)
      .join(', ');
  return String(v);
}

function DestinationCard(props: { destination: Full; onChanged: () => void }) {
  const d = props.destination;
  const [version, setVersion] = useState(0);
  const [rolling, setRolling] = useState(false);
  const [credential, setCredential] = useState('');
  const action = useAction();
  const path = `destinations/${encodeURIComponent(d.id)}` as const;
  const change = async (work: () => Promise<unknown>) => {
    const done = await action.run(work);
    if (done) props.onChanged();
    return done;
  };
  const settings = Object.entries(d.settings)
    .filter(
      ([, v]) =>
        v !== null &&
        !(Array.isArray(v) && v.length === 0) &&
        !(typeof v === 'object' && !Array.isArray(v) && Object.keys(v as object).length === 0),
    )
    .map(([k, v]) => `${LABELS[k] ?? k}: ${settingText(v)}`);
  return (
    <section class="card endpoint" aria-label={`${d.label} destination ${d.name ?? ''}`}>
      <div class="endpoint-head">
        <div class="endpoint-title">
          <h2 class="endpoint-url">{d.name ?? d.label}</h2>
          <p class="muted small destination-meta">
            {d.label} · credential …{d.credentialLast4} · <code>{d.url}</code>
          </p>
        </div>
        <Badge tone={d.status === 'enabled' ? 'good' : 'warn'}>{d.status === 'enabled' ? 'on' : 'off'}</Badge>
      </div>
      {d.status === 'disabled' && d.disabledReason ? (
        <p class="muted small">Off: {d.disabledReason}</p>
      ) : null}
      {settings.length ? <p class="small destination-meta">{settings.join(' · ')}</p> : null}
      {d.includeTest ? <p class="small">Also receives test leads.</p> : null}
      {d.vendor === 'salesforce' ? <SalesforceCaveat /> : null}
      {rolling ? (
        <form
          class="stack"
          onSubmit={async (ev) => {
            ev.preventDefault();
            if (await change(() => api.post(`${path}/roll-credentials`, { credential }))) {
              setRolling(false);
              setCredential('');
            }
          }}
        >
          <div class="field">
            <label for={`${d.id}-cred`}>New credential</label>
            <input
              id={`${d.id}-cred`}
              type="password"
              autocomplete="off"
              required
              minLength={8}
              value={credential}
              onInput={(e) => setCredential((e.target as HTMLInputElement).value)}
            />
          </div>
          <div class="button-row">
            <button type="submit" class="button button-primary" disabled={action.busy}>
              Save credential
            </button>
            <button type="button" class="button" onClick={() => setRolling(false)}>
              Cancel
            </button>
          </div>
        </form>
      ) : (
        <div class="card-actions">
          <button
            type="button"
            class="button button-small"
            disabled={action.busy}
            onClick={async () =>
              (await action.run(() => api.post(`${path}/test`))) && setVersion(version + 1)
            }
          >
            Send test lead
          </button>
          <button type="button" class="button button-small" onClick={() => setRolling(true)}>
            Replace credential
          </button>
          <button
            type="button"
            class="button button-small"
            disabled={action.busy}
            onClick={() => change(() => api.patch(path, { enabled: d.status !== 'enabled' }))}
          >
            {d.status === 'enabled' ? 'Turn off' : 'Turn on'}
          </button>
          <button
            type="button"
            class="button button-small button-danger"
            disabled={action.busy}
            onClick={() =>
              window.confirm(`Remove ${d.name ?? d.label} with its delivery log?`) &&
              change(() => api.delete(path))
            }
          >
            Remove
          </button>
        </div>
      )}
      <ErrorNote error={action.error} />
      <h3>Recent deliveries</h3>
      <Deliveries destination={d} version={version} />
    </section>
  );
}

/** What a viewer sees: the CRM, whether it is on, how its last delivery went. */
function SummaryTable(props: { rows: Row[] }) {
  return (
    <Card title="Destinations">
      <TableWrap label="CRM destinations">
        <table class="table table-stack">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Last delivery</th>
            </tr>
          </thead>
          <tbody>
            {props.rows.map((r) => (
              <tr key={r.id}>
                <td>
                  {r.name ?? r.label} <span class="muted small">({r.label})</span>
                </td>
                <td data-label="Status">
                  <Badge tone={r.status === 'enabled' ? 'good' : 'warn'}>
                    {r.status === 'enabled' ? 'on' : 'off'}
                  </Badge>
                </td>
                <td data-label="Last delivery">
                  {r.lastDelivery ? (
                    <>
                      <Badge tone={TONE[r.lastDelivery.status]}>{r.lastDelivery.status}</Badge>{' '}
                      {formatRelative(r.lastDelivery.createdAt)}
                    </>
                  ) : (
                    'none yet'
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
    </Card>
  );
}

/** A CRM refused a credential: said at the top, in words a firm can act on. */
function RefusedBanner(props: { rows: Row[]; link?: boolean }) {
  const off = props.rows.filter(refused);
  if (off.length === 0) return null;
  return (
    <section class="notice notice-warn" role="alert" aria-labelledby="refused-title">
      <h2 id="refused-title" class="held-title">
        Leads are not reaching {off.map((r) => r.name ?? r.label).join(', ')}
      </h2>
      <p>
        The CRM refused the credential, so the destination was turned off. New leads wait for up to 7 days:
        replace the credential and turn it on, and they are sent, oldest first.
        {props.link ? (
          <>
            {' '}
            <Link href="/portal/settings/destinations">Open Destinations</Link>
          </>
        ) : null}
      </p>
    </section>
  );
}

/** On Overview: the same banner; says nothing when every CRM takes its leads. */
export function DestinationsBanner() {
  const { data } = useResource(() => api.get('destinations'));
  return data ? <RefusedBanner rows={data.data} link /> : null;
}

export function SettingsDestinationsPage() {
  const { data, error, reload } = useResource(() => api.get('destinations'));
  return (
    <div class="page">
      <PageHeader
        title="Destinations"
        lead="Each new lead goes straight into your CRM within seconds: Clio Grow, HubSpot, Salesforce or Wealthbox, with first and last name, phone, the figures and the consent."
      />
      <ErrorNote error={error} />
      {!data ? (
        <Loading />
      ) : (
        <>
          <RefusedBanner rows={data.data} />
          {!data.canManage ? (
            <>
              <p class="notice">
                Viewers see each destination’s status and last delivery; owners and admins manage them.
              </p>
              {data.data.length ? (
                <SummaryTable rows={data.data} />
              ) : (
                <Card>
                  <Empty title="No destinations yet" />
                </Card>
              )}
            </>
          ) : (
            <>
              {data.data.length === 0 ? (
                <Card>
                  <Empty title="No destinations yet">
                    Add your CRM to receive each lead there as it arrives.
                  </Empty>
                </Card>
              ) : (
                data.data
                  .filter(isFull)
                  .map((d) => (
                    <DestinationCard
                      key={`${d.id}-${d.status}-${d.credentialLast4}`}
                      destination={d}
                      onChanged={reload}
                    />
                  ))
              )}
              <Card title="Add a destination" id="add-destination">
                <AddDestination vendors={data.vendors} onCreated={reload} />
              </Card>
            </>
          )}
        </>
      )}
    </div>
  );
}
