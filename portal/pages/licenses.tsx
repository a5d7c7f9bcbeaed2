import { useState } from 'preact/hooks';
import type { BillingOptions, EmbedSightings, PortalLicense } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { useAction } from '../components/action.ts';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader, TableWrap } from '../components/ui.tsx';
import { formatDate, plural, readableDays, STATUS_TONE } from '../format.ts';
import { location$ } from '../router.ts';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { LicenseKeys } from './license-keys.tsx';
import { LicenseDomains, LicenseSites } from './license-sites.tsx';

const title = (plan: string) => `${plan.charAt(0).toUpperCase()}${plan.slice(1)}`;

function Dates(props: { license: PortalLicense; liveOn: number }) {
  const l = props.license;
  const rows: [string, string | null | undefined][] = [
    ['Trial ends', l.paidThrough ? null : l.trialEndsAt],
    ['Paid through', l.paidThrough],
    ['Renews', l.renewsAt],
    ['Grace ends', l.status === 'grace' ? l.graceEndsAt : null],
  ];
  return (
    <dl class="facts">
      <div>
        <dt>Plan</dt>
        <dd>{title(l.plan)}</dd>
      </div>
      <div>
        <dt>Seats</dt>
        <dd class="num">
          {l.seatsUsed} of {plural(l.seats, 'seat')} used
        </dd>
      </div>
      <div>
        {/* Beside the seats, so "0 seats used" never reads as "not live": embeds take no seat. */}
        <dt>Calculators live on</dt>
        <dd class="num">
          <a href={`#live-${l.id}`}>{props.liveOn ? plural(props.liveOn, 'site') : 'no site yet'}</a>
        </dd>
      </div>
      {rows
        .filter(([, date]) => date)
        .map(([label, date]) => (
          <div key={label}>
            <dt>{label}</dt>
            <dd class="num">{formatDate(date)}</dd>
          </div>
        ))}
    </dl>
  );
}

function Billing(props: { license: PortalLicense; options: BillingOptions }) {
  const l = props.license;
  const [plan, setPlan] = useState(
    props.options.plans.includes(l.plan) ? l.plan : (props.options.plans[0] ?? ''),
  );
  const action = useAction();
  const go = async (work: () => Promise<{ url: string }>) => {
    const answer = await action.run(work);
    if (answer) window.location.assign(answer.url);
  };
  const pays = l.status === 'active' && l.paidThrough;
  const planId = `${l.id}-plan`;
  return (
    <div class="billing-row">
      <button
        type="button"
        class="button"
        disabled={action.busy}
        onClick={() => go(() => api.post('billing/portal'))}
      >
        Open billing portal
      </button>
      {props.options.checkout && !pays ? (
        <form
          class="inline-form"
          onSubmit={(e) => {
            e.preventDefault();
            go(() => api.post('billing/checkout', { licenseId: l.id, plan }));
          }}
        >
          <div class="field">
            <label for={planId}>Plan</label>
            <select id={planId} value={plan} onChange={(e) => setPlan((e.target as HTMLSelectElement).value)}>
              {props.options.plans.map((p) => (
                <option key={p} value={p}>
                  {title(p)}
                </option>
              ))}
            </select>
          </div>
          <button type="submit" class="button button-primary" disabled={action.busy}>
            Subscribe with Stripe
          </button>
        </form>
      ) : null}
      <ErrorNote error={action.error} />
    </div>
  );
}

const UTC_DAY = new Intl.DateTimeFormat('en-US', {
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  timeZone: 'UTC',
});
const utcDay = (day: string | null) => (day ? UTC_DAY.format(new Date(`${day}T00:00:00Z`)) : '—');

/** Where the calculators are live: the site origins the funnel counted, last view and last lead (UTC days). */
function LiveEmbeds(props: { license: PortalLicense; embeds: EmbedSightings['data'] }) {
  const mine = props.embeds.filter((e) => e.licenseId === props.license.id);
  if (mine.length === 0)
    return (
      <p class="muted">
        No calculator of this license has been seen on a site yet. Views appear here within seconds of a
        visitor opening a page with one.
      </p>
    );
  return (
    <TableWrap label={`Where the calculators of license …${props.license.keyLast4} are live`}>
      <table class="table table-stack">
        <thead>
          <tr>
            <th scope="col">Site</th>
            <th scope="col">Last view</th>
            <th scope="col">Last lead</th>
          </tr>
        </thead>
        <tbody>
          {mine.map((e) => (
            <tr key={e.origin}>
              {/* The embed session's own origin, which the server checked against the allowed domains. */}
              <td>{e.origin.replace(/^https?:\/\//, '')}</td>
              <td class="num nowrap" data-label="Last view">
                {utcDay(e.lastView)}
              </td>
              <td class="num nowrap" data-label="Last lead">
                {utcDay(e.lastLead)}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}

function LicenseCard(props: {
  license: PortalLicense;
  billing: BillingOptions;
  embeds: EmbedSightings['data'];
  onChanged: () => void;
}) {
  const l = props.license;
  return (
    <Card title={`${title(l.plan)} license …${l.keyLast4}`} id={l.id}>
      <p class="status-line">
        <Badge tone={STATUS_TONE[l.status]}>{l.status}</Badge>
        <span>{readableDays(l.next)}</span>
      </p>
      <Dates license={l} liveOn={props.embeds.filter((e) => e.licenseId === l.id).length} />
      <h3>Keys</h3>
      <LicenseKeys license={l} onChanged={props.onChanged} />
      <h3>Allowed domains</h3>
      <LicenseDomains license={l} onChanged={props.onChanged} />
      <h3 id={`live-${l.id}`}>Where the calculators are live</h3>
      <LiveEmbeds license={l} embeds={props.embeds} />
      <h3>Seats: sites that activated this license</h3>
      <LicenseSites license={l} onChanged={props.onChanged} />
      {canManage() ? (
        <>
          <h3>Billing</h3>
          <Billing license={l} options={props.billing} />
        </>
      ) : null}
    </Card>
  );
}

export function LicensesPage() {
  const { data, error, reload } = useResource(() =>
    Promise.all([api.get('licenses'), api.get('billing'), api.get('embeds')]),
  );
  const checkout = new URLSearchParams(location$.value.split('?')[1] ?? '').get('checkout');
  return (
    <div class="page">
      <PageHeader
        title="Licenses"
        lead="Your keys, the domains where your calculators may run, the sites that use them, and billing."
      />
      {checkout === 'done' ? (
        <p class="notice" role="status">
          Thank you. Stripe is confirming the payment; the license status updates within a minute.
        </p>
      ) : null}
      {!canManage() ? (
        <p class="notice">Viewers can see licenses but not change domains, seats, keys or billing.</p>
      ) : null}
      <ErrorNote error={error} />
      {!data ? (
        <Loading />
      ) : data[0].data.length === 0 ? (
        <Card>
          <Empty title="No licenses yet">Your svc operator creates your first license.</Empty>
        </Card>
      ) : (
        data[0].data.map((l) => (
          <LicenseCard key={l.id} license={l} billing={data[1]} embeds={data[2].data} onChanged={reload} />
        ))
      )}
    </div>
  );
}
