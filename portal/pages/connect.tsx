import { useState } from 'preact/hooks';
import type { ConnectRequest } from '../../server/routes/portal/types.ts';
import { api, type PortalError } from '../api.ts';
import { ErrorNote, Loading } from '../components/ui.tsx';
import { domainLabel } from '../format.ts';
import { session$ } from '../session.ts';
import { useResource } from '../use-resource.ts';

const PARAMS = [
  'response_type',
  'client_id',
  'redirect_uri',
  'state',
  'code_challenge',
  'code_challenge_method',
  'site_domain',
  'scope',
] as const;

/** Why a development host gets what it gets, in words a firm's staff can act on. */
function HostNote({ kind, site }: { kind: ConnectRequest['hostKind']; site: string }) {
  if (kind === 'loopback')
    return (
      <p class="notice notice-warn" role="note">
        {site} is a computer’s own address. Approve only if this is your own computer, where you build or test
        a plugin: whatever runs on it gets access to your leads.
      </p>
    );
  if (kind === 'private')
    return (
      <p class="notice" role="note">
        {site} is a development address on a private network, reached without encryption. It gets your
        calculators and license status only, never your leads. Connect the live site for lead access.
      </p>
    );
  return null;
}

/** `GET /oauth/authorize`: the Connect consent screen. */
export function ConnectPage() {
  const search = new URLSearchParams(window.location.search);
  const params = Object.fromEntries(
    PARAMS.filter((p) => search.has(p)).map((p) => [p, search.get(p) ?? '']),
  ) as Record<string, string>;
  const { data, error } = useResource(() => api.get('connect', params));
  const [licenseId, setLicenseId] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<PortalError | null>(null);
  const chosen = licenseId ?? data?.licenses[0]?.id ?? null;

  const decide = async (approve: boolean) => {
    setBusy(true);
    try {
      const { redirectTo } = approve
        ? await api.post('connect/approve', { ...params, license_id: chosen })
        : await api.post('connect/deny', params);
      window.location.assign(redirectTo);
    } catch (e) {
      setActionError(e as PortalError);
      setBusy(false);
    }
  };

  return (
    <div class="auth-page">
      <main class="auth-card auth-card-wide" id="main">
        <span class="brand-mark brand-mark-large" aria-hidden="true">
          s
        </span>
        {error ? (
          <>
            <h1>This connection request cannot be used</h1>
            <ErrorNote error={error} />
            <p class="muted">Go back to the site you came from and start the connection again.</p>
          </>
        ) : !data ? (
          <Loading />
        ) : (
          <>
            <h1>
              Connect <span class="accent-text">{data.clientId}</span> to {session$.value?.firm.name}
            </h1>
            <dl class="facts facts-stacked">
              <div>
                <dt>Website</dt>
                <dd>
                  <strong>{data.site.unicode}</strong>
                  {data.site.unicode !== data.site.ascii ? (
                    <span class="muted"> ({data.site.ascii})</span>
                  ) : null}
                  {data.developmentHost ? (
                    <>
                      {' '}
                      <span class="badge badge-warn">development host</span>
                    </>
                  ) : null}
                </dd>
              </div>
              <div>
                <dt>Returns to</dt>
                <dd>
                  <code>{data.redirectOrigin}</code>
                </dd>
              </div>
            </dl>
            <h2 class="h3">This site will be able to</h2>
            <ul class="checklist">
              {data.access.map((a) => (
                <li key={a}>{a}</li>
              ))}
            </ul>
            {data.withheld.length > 0 ? (
              <>
                <h2 class="h3">It will not be able to</h2>
                <ul class="checklist">
                  {data.withheld.map((a) => (
                    <li key={a}>{a}</li>
                  ))}
                </ul>
              </>
            ) : null}
            <HostNote kind={data.hostKind} site={data.site.unicode} />
            {data.licenses.length === 0 ? (
              <p class="error-note" role="alert">
                None of your firm’s licenses allows {data.site.unicode}. Add the domain to a license first.
              </p>
            ) : data.licenses.length > 1 ? (
              <fieldset class="field">
                <legend>Use which license?</legend>
                {data.licenses.map((l) => (
                  <label key={l.id} class="check radio-card">
                    <input
                      type="radio"
                      name="license"
                      value={l.id}
                      checked={chosen === l.id}
                      onChange={() => setLicenseId(l.id)}
                    />
                    <span>
                      <span class="check-label">
                        {l.plan} · …{l.keyLast4}
                      </span>
                      <span class="check-help">{l.domains.map(domainLabel).join(', ')}</span>
                    </span>
                  </label>
                ))}
              </fieldset>
            ) : (
              <p class="muted">
                License: {data.licenses[0]!.plan} · …{data.licenses[0]!.keyLast4}
              </p>
            )}
            {!data.canApprove ? (
              <p class="notice">Viewers cannot connect sites. Ask an owner or admin of your firm.</p>
            ) : null}
            <ErrorNote error={actionError} />
            <div class="button-row">
              <button
                type="button"
                class="button button-primary"
                disabled={busy || !chosen || !data.canApprove}
                onClick={() => decide(true)}
              >
                Approve
              </button>
              <button type="button" class="button" disabled={busy} onClick={() => decide(false)}>
                Deny
              </button>
            </div>
            <p class="muted small">Signed in as {session$.value?.user.email}.</p>
          </>
        )}
      </main>
    </div>
  );
}
