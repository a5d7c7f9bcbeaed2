import { useState } from 'preact/hooks';
import { api, type PortalError } from '../api.ts';
import { ConfirmDialog } from '../components/confirm-dialog.tsx';
import {
  Badge,
  Card,
  CopyButton,
  ErrorNote,
  Link,
  Loading,
  PageHeader,
  TableWrap,
} from '../components/ui.tsx';
import { formatDate, formatDateTime, formatRelative } from '../format.ts';
import { appName, type ConnectedApp, clientIdentity } from '../mcp-oauth-types.ts';
import { canManage, session$ } from '../session.ts';
import { useResource } from '../use-resource.ts';

/** The scopes an MCP grant can hold, in words (an unknown scope shows as it is). */
const SCOPE_WORDS: Record<string, string> = {
  'leads:read': 'Read leads, results and stats',
  'leads:export': 'Download leads, results and reports',
  'leads:write': 'Change lead statuses',
};

/** What to do when nothing is connected: the MCP address to paste, and where the steps are. */
function NoApps() {
  const mcp = session$.value?.urls.mcp ?? '';
  return (
    <div class="empty" data-testid="connected-apps-empty">
      <p class="empty-title">No AI assistant is connected yet</p>
      <p class="muted">
        In claude.ai, ChatGPT, VS Code or Cursor, add a custom connector (an “MCP server”) with this address,
        then sign in here when the assistant asks and approve it:
      </p>
      <div class="secret secret-plain">
        <code>{mcp}</code>
        <CopyButton text={mcp} label="Copy address" />
      </div>
      <p class="muted">
        The step-by-step guide for each assistant is “Connecting AI assistants” in the svc documentation. A
        tool that takes a key instead can use an <Link href="/portal/settings/api-keys">API key</Link>.
      </p>
    </div>
  );
}

function AppRow(props: { app: ConnectedApp; manage: boolean; onRevoke: (app: ConnectedApp) => void }) {
  const { app } = props;
  return (
    <tr>
      <td>
        <span class="cell-main">
          {appName(app.clientName)}
          {app.nameVerified ? null : (
            <>
              {' '}
              <Badge tone="warn">unverified name</Badge>
            </>
          )}
        </span>
        <span class="cell-sub wrap-any">{clientIdentity(app)}</span>
      </td>
      <td class="nowrap" data-label="Returns to">
        <code>{app.redirectHost}</code>
      </td>
      <td data-label="Approved by">
        <span>
          <span class="cell-main">{app.approvedBy.name ?? app.approvedBy.email}</span>
          {app.approvedBy.name ? <span class="cell-sub">{app.approvedBy.email}</span> : null}
          <span class="cell-sub">
            on{' '}
            <time dateTime={app.approvedAt} title={formatDateTime(app.approvedAt)}>
              {formatDate(app.approvedAt)}
            </time>
          </span>
        </span>
      </td>
      <td class="nowrap" data-label="Last used">
        {app.lastUsedAt ? (
          <time dateTime={app.lastUsedAt} title={formatDateTime(app.lastUsedAt)}>
            {formatRelative(app.lastUsedAt)}
          </time>
        ) : (
          'never'
        )}
      </td>
      <td class="apps-access" data-label="Access">
        {app.scopes.map((s) => SCOPE_WORDS[s] ?? s).join('; ')}
      </td>
      <td class="actions">
        {props.manage ? (
          <button type="button" class="button button-small button-danger" onClick={() => props.onRevoke(app)}>
            Revoke<span class="visually-hidden"> {appName(app.clientName)}</span>
          </button>
        ) : null}
      </td>
    </tr>
  );
}

/** Settings → Connected apps: every AI application a member approved, with Revoke. */
export function ConnectedAppsPage() {
  const { data, error, reload } = useResource(() => api.get('connected-apps'));
  const [revoking, setRevoking] = useState<ConnectedApp | null>(null);
  const [revoked, setRevoked] = useState<string | null>(null);
  const manage = canManage();
  return (
    <div class="page">
      <PageHeader
        title="Connected apps"
        lead="AI assistants that members approved to read your firm’s leads. Revoking one stops it on its next request."
      />
      {manage ? null : (
        <p class="notice">Viewers can see connected apps but not revoke them. Ask an owner or admin.</p>
      )}
      <ErrorNote error={error as PortalError | undefined} />
      {revoked ? (
        <p class="success-note" role="status">
          {revoked} can no longer read your firm’s data.
        </p>
      ) : null}
      <Card title="Applications" id="apps">
        {!data ? (
          error ? null : (
            <Loading />
          )
        ) : data.apps.length === 0 ? (
          <NoApps />
        ) : (
          <TableWrap label="Connected applications">
            <table class="table table-stack apps-table">
              <thead>
                <tr>
                  <th scope="col">Application</th>
                  <th scope="col">Returns to</th>
                  <th scope="col">Approved by</th>
                  <th scope="col">Last used</th>
                  <th scope="col">Access</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.apps.map((app) => (
                  <AppRow key={app.grantId} app={app} manage={manage} onRevoke={setRevoking} />
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Card>
      <ConfirmDialog
        open={revoking !== null}
        title={`Revoke ${revoking?.clientName ?? 'this application'}?`}
        confirmLabel="Revoke access"
        danger
        onClose={() => setRevoking(null)}
        onConfirm={async () => {
          const app = revoking!;
          await api.post(`connected-apps/${encodeURIComponent(app.grantId)}/revoke`);
          setRevoking(null);
          setRevoked(appName(app.clientName));
          await reload();
        }}
      >
        <p>
          {revoking ? appName(revoking.clientName) : ''} ({revoking ? clientIdentity(revoking) : ''}) stops
          working on its next request. To use it again, someone must connect it and approve it again.
        </p>
      </ConfirmDialog>
    </div>
  );
}
