import { useState } from 'preact/hooks';
import { api, PortalError } from '../api.ts';
import { Badge, ErrorNote, Loading } from '../components/ui.tsx';
import {
  appName,
  clientIdentity,
  type McpConsentProblem,
  type McpConsentRequest,
} from '../mcp-oauth-types.ts';
import { session$ } from '../session.ts';
import { useResource } from '../use-resource.ts';

/**
 * What an MCP grant never allows, whatever the application asks for. Changing a lead's status and
 * downloading files are optional scopes the approver ticks; when not asked for, they are listed here.
 */
const NEVER = ['Delete leads', 'See or change billing', 'Manage members, API keys or firm settings'];
const UNLESS_ASKED: Record<string, string> = {
  'leads:write': 'Change a lead’s status',
  'leads:export': 'Download files of your leads',
};

/** The request's own query, passed through unchanged: the server validates every parameter. */
function authorizeParams(): Record<string, string> {
  return Object.fromEntries(new URLSearchParams(window.location.search));
}

function Refused(props: { error: PortalError }) {
  const back = (props.error.details as McpConsentProblem[]).find((d) => d.redirectTo)?.redirectTo;
  return (
    <>
      <h1>This connection request cannot be used</h1>
      <ErrorNote error={props.error} />
      {props.error.details.length > 0 ? (
        <ul class="checklist small">
          {props.error.details.map((d) => (
            <li key={d.path}>
              <code>{d.path}</code>: {d.message}
            </li>
          ))}
        </ul>
      ) : null}
      {back ? (
        <>
          <p class="muted">
            Nothing was approved. Return to the application to tell it the request failed; if it fails the
            same way again, tell whoever set the assistant up.
          </p>
          <div class="button-row">
            <button type="button" class="button" onClick={() => window.location.assign(back)}>
              Return to the application
            </button>
          </div>
        </>
      ) : (
        <p class="muted">
          Nothing was sent to the application. Go back to your AI assistant and start the connection again; if
          it fails the same way, tell whoever set the assistant up.
        </p>
      )}
    </>
  );
}

function ApplicationFacts({ client }: { client: McpConsentRequest['client'] }) {
  const identity = clientIdentity(client);
  return (
    <dl class="facts facts-stacked consent-facts">
      <div>
        <dt>Application</dt>
        <dd>
          <strong>{appName(client.name)}</strong>{' '}
          {client.nameVerified ? null : <Badge tone="warn">unverified name</Badge>}
          {client.nameVerified ? null : (
            <span class="check-help">
              The application chose this name itself. Recognize it by the addresses below.
            </span>
          )}
        </dd>
      </div>
      <div>
        <dt>{client.kind === 'metadata-document' ? 'Published by' : 'Client ID'}</dt>
        <dd>
          <code class="wrap-any">{identity}</code>
          {client.kind === 'dynamic' ? (
            <span class="check-help">
              The identifier svc gave this application when it registered itself.
            </span>
          ) : null}
          {client.kind === 'metadata-document' && identity !== client.clientId ? (
            <span class="check-help">
              Its description is published at <code class="wrap-any">{client.clientId}</code>
            </span>
          ) : null}
        </dd>
      </div>
      <div>
        <dt>Sends you back to</dt>
        <dd>
          <code class="wrap-any">{client.redirectHost}</code>
        </dd>
      </div>
    </dl>
  );
}

/**
 * A loopback return goes to whichever program listens on that port of this computer, so the page says
 * that, not that it returns "to the application". A `*.localhost` name reads like the application's
 * own address but is one any program here may claim, so the page says that too.
 */
function LocalhostWarning({ host, named }: { host: string; named: boolean }) {
  return (
    <div class="notice notice-warn" role="note">
      <p>
        <strong>This application receives its answer on this computer</strong> (<code>{host}</code>), from
        whichever program is listening there.
      </p>
      {named ? (
        <p>
          This name does not identify the application: your browser sends any name ending in{' '}
          <code>.localhost</code> to this computer, and any program running on it can use the name.
        </p>
      ) : null}
      <p>
        That is normal for a desktop tool such as VS Code or Cursor. Approve only if you started this
        connection yourself, on this computer, just now: any program on it could otherwise read your firm’s
        leads.
      </p>
    </div>
  );
}

/** `GET /oauth/authorize/mcp` (where the server sends an MCP `/oauth/authorize`): an AI application asks to read the firm's data. */
export function McpConsentPage() {
  const params = authorizeParams();
  const { data, error } = useResource(() => api.get('oauth/mcp-consent', params));
  const [busy, setBusy] = useState(false);
  const [actionError, setActionError] = useState<PortalError | null>(null);
  // Optional scopes start unticked: an application gets them only when the approver ticks them.
  const [ticked, setTicked] = useState<string[]>([]);

  const decide = async (decision: 'approve' | 'deny') => {
    setBusy(true);
    setActionError(null);
    try {
      const approvedScopes = decision === 'approve' ? ticked : [];
      const { redirectTo } = await api.post('oauth/mcp-consent', { ...params, decision, approvedScopes });
      window.location.assign(redirectTo);
    } catch (e) {
      const error = e as PortalError;
      // A server that refuses a viewer's Deny outright (403) still leaves nothing approved: say so.
      setActionError(
        decision === 'deny' && error.status === 403
          ? new PortalError(
              error.code,
              'Nothing was approved. Close this tab and go back to your assistant.',
              403,
            )
          : error,
      );
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
          <Refused error={error} />
        ) : !data ? (
          <Loading />
        ) : (
          <>
            <h1>
              Let an AI application read <span class="accent-text">{data.firm.name}</span>’s leads?
            </h1>
            <ApplicationFacts client={data.client} />
            {data.client.localhostOnly ? (
              <LocalhostWarning host={data.client.redirectHost} named={data.client.localhostName} />
            ) : null}
            <h2 class="h3">It will be able to</h2>
            <ul class="checklist" data-testid="mcp-scopes">
              {data.scopes
                .filter((s) => !s.optional)
                .map((s) => (
                  <li key={s.scope}>{s.description}</li>
                ))}
            </ul>
            {data.scopes.some((s) => s.optional) ? (
              <fieldset class="plain-fieldset" data-testid="mcp-optional-scopes">
                <legend class="h3">It also asks to — only if you tick it</legend>
                {data.scopes
                  .filter((s) => s.optional)
                  .map((s) => (
                    <label key={s.scope} class="check">
                      <input
                        type="checkbox"
                        name="approvedScopes"
                        value={s.scope}
                        checked={ticked.includes(s.scope)}
                        disabled={!data.canApprove || busy}
                        onChange={(e) =>
                          setTicked(
                            (e.target as HTMLInputElement).checked
                              ? [...ticked, s.scope]
                              : ticked.filter((v) => v !== s.scope),
                          )
                        }
                      />
                      <span>
                        <span class="check-label">{s.description}</span>
                        <span class="check-help">
                          <code>{s.scope}</code>
                          {s.scope === 'leads:export'
                            ? ' — files of your clients’ personal data, each download recorded under Activity'
                            : ' — each change is recorded under Activity and sent to your webhooks'}
                        </span>
                      </span>
                    </label>
                  ))}
              </fieldset>
            ) : null}
            <h2 class="h3">It will not be able to</h2>
            <ul class="checklist">
              {[
                ...Object.entries(UNLESS_ASKED)
                  .filter(([scope]) => !data.scopes.some((s) => s.scope === scope))
                  .map(([, words]) => words),
                ...NEVER,
              ].map((n) => (
                <li key={n}>{n}</li>
              ))}
            </ul>
            <p class="muted small">
              Access lasts until someone revokes it under Settings → Connected apps, or until the person who
              approved it is no longer an owner or admin of {data.firm.name}.
            </p>
            {data.canApprove ? null : (
              <div class="notice" role="note" data-testid="viewer-note">
                <p>
                  <strong>Only an owner or admin can approve.</strong> You are a {data.role} of{' '}
                  {data.firm.name}, so you can see this request but not allow it.
                </p>
                <p>Ask an owner or admin to connect the application, or to change your role.</p>
              </div>
            )}
            <ErrorNote error={actionError} />
            <div class="button-row">
              {data.canApprove ? (
                <button
                  type="button"
                  class="button button-primary"
                  disabled={busy}
                  onClick={() => decide('approve')}
                >
                  Approve
                </button>
              ) : null}
              <button type="button" class="button" disabled={busy} onClick={() => decide('deny')}>
                {data.canApprove ? 'Deny' : 'Deny and go back'}
              </button>
            </div>
            <p class="muted small">
              Signed in as {session$.value?.user.email} ({data.role}).
            </p>
          </>
        )}
      </main>
    </div>
  );
}
