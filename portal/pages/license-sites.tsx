import { useState } from 'preact/hooks';
import type { PortalLicense } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { useAction } from '../components/action.ts';
import { Empty, ErrorNote, TableWrap } from '../components/ui.tsx';
import { domainLabel, formatDate, formatRelative } from '../format.ts';
import { canManage } from '../session.ts';

/** Allowed domains: Unicode and punycode both shown; add and remove through the API's normalisation. */
export function LicenseDomains(props: { license: PortalLicense; onChanged: () => void }) {
  const l = props.license;
  const [entry, setEntry] = useState('');
  const [added, setAdded] = useState<string | null>(null);
  const action = useAction();
  const manage = canManage();
  const change = (body: { addDomains?: string[]; removeDomains?: string[] }) =>
    action.run(() => api.post(`licenses/${encodeURIComponent(l.id)}/domains`, body));
  const add = async (event: Event) => {
    event.preventDefault();
    const before = new Set(l.domains.map((d) => d.ascii));
    const result = await change({ addDomains: [entry] });
    if (!result) return;
    const after = (result as { license: { allowedDomains: string[] } }).license.allowedDomains;
    setAdded(after.find((d) => !before.has(d)) ?? null);
    setEntry('');
    props.onChanged();
  };
  const remove = async (domain: { ascii: string; unicode: string }) => {
    const sure = window.confirm(
      `Remove ${domainLabel(domain)}? Calculators on that site stop on their next request and its seat is freed.`,
    );
    if (sure && (await change({ removeDomains: [domain.ascii] }))) {
      setAdded(null);
      props.onChanged();
    }
  };
  const inputId = `${l.id}-domain`;
  return (
    <>
      {l.domains.length === 0 ? (
        <p class="muted">No domains yet: calculators work only on development hosts such as localhost.</p>
      ) : (
        <ul class="chips domain-chips">
          {l.domains.map((d) => (
            <li key={d.ascii} class="chip domain-chip">
              <span>
                {d.unicode}
                {d.unicode !== d.ascii ? <span class="chip-sub"> {d.ascii}</span> : null}
              </span>
              {manage ? (
                <button
                  type="button"
                  class="chip-remove"
                  aria-label={`Remove ${domainLabel(d)}`}
                  disabled={action.busy}
                  onClick={() => remove(d)}
                >
                  ×
                </button>
              ) : null}
            </li>
          ))}
        </ul>
      )}
      {manage ? (
        <form class="inline-form domain-form" onSubmit={add}>
          <div class="field grow">
            <label for={inputId}>Add a domain</label>
            <input
              id={inputId}
              required
              maxLength={253}
              placeholder="smithlaw.com or *.smithlaw.com"
              aria-describedby={`${inputId}-help`}
              value={entry}
              onInput={(e) => setEntry((e.target as HTMLInputElement).value)}
            />
          </div>
          <button type="submit" class="button" disabled={action.busy}>
            Add domain
          </button>
          <p class="help" id={`${inputId}-help`}>
            Paste an address or a domain; it is stored as the API matches it (lower case, punycode, without
            www., port or path). *.example.com covers its subdomains only.
          </p>
        </form>
      ) : null}
      {added ? (
        <p class="success-note" role="status">
          Added {domainLabel(l.domains.find((d) => d.ascii === added) ?? { ascii: added, unicode: added })}.
        </p>
      ) : null}
      <ErrorNote error={action.error} />
    </>
  );
}

/** The sites using the license, with last-seen times and "Release seat". */
export function LicenseSites(props: { license: PortalLicense; onChanged: () => void }) {
  const l = props.license;
  const activations = l.activations ?? [];
  const action = useAction();
  const manage = canManage();
  const release = async (a: NonNullable<PortalLicense['activations']>[number]) => {
    const sure = window.confirm(
      `Release the seat of ${domainLabel(a.domain)}? Its calculators stop until the site activates again.`,
    );
    if (sure && (await action.run(() => api.post(`activations/${encodeURIComponent(a.id)}/release`))))
      props.onChanged();
  };
  if (activations.length === 0)
    return (
      <Empty title="No seat used">
        A seat is taken by a site that activates the license with its secret key (a server or the WordPress
        plugin); calculators embedded with the publishable key take none, and development hosts take none.
      </Empty>
    );
  return (
    <>
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
                <td data-label="Kind">{a.env === 'prod' ? 'Live site (1 seat)' : 'Development (no seat)'}</td>
                <td class="num nowrap" data-label="First seen">
                  {formatDate(a.firstSeenAt)}
                </td>
                <td class="num nowrap" data-label="Last seen">
                  {formatRelative(a.lastSeenAt)}
                </td>
                <td class="actions">
                  {manage ? (
                    <button
                      type="button"
                      class="button button-small"
                      disabled={action.busy}
                      onClick={() => release(a)}
                    >
                      Release seat<span class="visually-hidden"> of {domainLabel(a.domain)}</span>
                    </button>
                  ) : null}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </TableWrap>
      <ErrorNote error={action.error} />
    </>
  );
}
