import { api } from '../api.ts';
import { Badge, Card, Empty, ErrorNote, Loading, PageHeader, TableWrap } from '../components/ui.tsx';
import {
  domainLabel,
  formatDate,
  formatRelative,
  type LicenseView,
  licenseStatusWords,
  plural,
  STATUS_TONE,
} from '../format.ts';
import { lifecycle } from '../lifecycle-client.ts';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';

const capitalize = (text: string) => text.charAt(0).toUpperCase() + text.slice(1);

function LicenseCard(props: { license: LicenseView }) {
  const l = props.license;
  const editable = lifecycle.available && canManage();
  const activations = l.activations ?? [];
  return (
    <Card title={`${l.plan[0]!.toUpperCase()}${l.plan.slice(1)} license`} id={l.id}>
      <p class="status-line">
        <Badge tone={STATUS_TONE[l.status]}>{l.status}</Badge>
        <span>{capitalize(licenseStatusWords(l).replace(/^[^—]+— /, ''))}</span>
      </p>
      <dl class="facts">
        <div>
          <dt>Secret license key</dt>
          <dd>
            <code>SVC-…{l.keyLast4}</code>{' '}
            <span class="muted small">shown in full once, when it was created</span>
          </dd>
        </div>
        {l.publishableKey ? (
          <div>
            <dt>Publishable key</dt>
            <dd>
              <code>{l.publishableKey}</code>
            </dd>
          </div>
        ) : null}
        <div>
          <dt>Seats</dt>
          <dd class="num">
            {l.seatsUsed} of {plural(l.seats, 'seat')} used
          </dd>
        </div>
        <div>
          <dt>{l.trialEndsAt && !l.paidThrough ? 'Trial ends' : 'Paid through'}</dt>
          <dd class="num">{formatDate(l.paidThrough ?? l.trialEndsAt)}</dd>
        </div>
      </dl>

      <h3>Allowed domains</h3>
      {l.domains.length === 0 ? (
        <p class="muted">No domains yet: widgets work only on development hosts such as localhost.</p>
      ) : (
        <ul class="chips">
          {l.domains.map((d) => (
            <li key={d.ascii} class="chip">
              {domainLabel(d)}
            </li>
          ))}
        </ul>
      )}

      <h3>Sites using this license</h3>
      {activations.length === 0 ? (
        <Empty title="No site has activated this license yet">
          A site takes a seat the first time it activates the license; development hosts take none.
        </Empty>
      ) : (
        <TableWrap label={`Sites using license …${l.keyLast4}`}>
          <table class="table table-stack">
            <thead>
              <tr>
                <th scope="col">Site</th>
                <th scope="col">Kind</th>
                <th scope="col">First seen</th>
                <th scope="col">Last seen</th>
                <th scope="col">
                  <span class="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {activations.map((a) => (
                <tr key={a.id}>
                  <td>{domainLabel(a.domain)}</td>
                  <td data-label="Kind">
                    {a.env === 'prod' ? 'Live site (1 seat)' : 'Development (no seat)'}
                  </td>
                  <td class="num nowrap" data-label="First seen">
                    {formatDate(a.firstSeenAt)}
                  </td>
                  <td class="num nowrap" data-label="Last seen">
                    {formatRelative(a.lastSeenAt)}
                  </td>
                  <td class="actions">
                    <button
                      type="button"
                      class="button button-small"
                      disabled={!editable}
                      onClick={() => lifecycle.releaseSeat(l.id, a.id)}
                    >
                      Release seat
                    </button>
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableWrap>
      )}
      <div class="card-actions">
        <button
          type="button"
          class="button"
          disabled={!editable}
          onClick={() => lifecycle.addDomain(l.id, '')}
        >
          Change domains
        </button>
        <button
          type="button"
          class="button"
          disabled={!editable}
          onClick={() => lifecycle.openBillingPortal(l.id)}
        >
          Billing
        </button>
      </div>
      {!lifecycle.available ? (
        <p class="muted small">
          Domain, seat and billing changes are made by your svc operator for now; these buttons switch on when
          self-service license changes arrive.
        </p>
      ) : null}
    </Card>
  );
}

export function LicensesPage() {
  const { data, error } = useResource(() => api.get<{ data: LicenseView[] }>('licenses'));
  return (
    <div class="page">
      <PageHeader title="Licenses" lead="Where your calculators may run, and the sites that use them." />
      <ErrorNote error={error} />
      {!data ? (
        <Loading />
      ) : data.data.length === 0 ? (
        <Card>
          <Empty title="No licenses yet">Your svc operator creates your first license.</Empty>
        </Card>
      ) : (
        data.data.map((l) => <LicenseCard key={l.id} license={l} />)
      )}
    </div>
  );
}
