import { useState } from 'preact/hooks';
import type { ApiKey } from '../../server/routes/portal/types.ts';
import { api, type PortalError } from '../api.ts';
import {
  Badge,
  Card,
  CodeBlock,
  CopyButton,
  Empty,
  ErrorNote,
  Loading,
  PageHeader,
  TableWrap,
} from '../components/ui.tsx';
import { formatDate, formatRelative } from '../format.ts';
import { mcpSnippets } from '../mcp-snippets.ts';
import { canManage, session$ } from '../session.ts';
import { useResource } from '../use-resource.ts';

const SCOPES = [
  { value: 'leads:read', label: 'Read leads', help: 'For AI tools and reports (MCP, GET /leads).' },
  { value: 'leads:write', label: 'Update leads', help: 'Change a lead’s status.' },
  {
    value: 'leads:export',
    label: 'Export leads',
    help: 'Files of personal data: CSV/JSON exports and PDF reports over MCP.',
  },
  { value: 'billing', label: 'Billing', help: 'Open the billing portal.' },
  { value: 'admin', label: 'Full access', help: 'Everything the firm’s admin API allows.' },
];

function NewKey(props: { apiKey: string; onDone: () => void }) {
  const mcp = session$.value!.urls.mcp;
  const [tab, setTab] = useState('claude');
  const snippets = mcpSnippets(mcp, props.apiKey);
  const current = snippets.find((s) => s.id === tab)!;
  return (
    <Card title="Your new API key" id="new-key" description="Copy it now: it is shown only this once.">
      <div class="secret">
        <code data-testid="new-api-key">{props.apiKey}</code>
        <CopyButton text={props.apiKey} label="Copy key" />
      </div>
      <h3>Connect an AI tool</h3>
      <div class="tabs" role="tablist" aria-label="AI tool">
        {snippets.map((s) => (
          <button
            key={s.id}
            type="button"
            role="tab"
            id={`tab-${s.id}`}
            aria-selected={s.id === tab}
            aria-controls="snippet-panel"
            class="tab"
            onClick={() => setTab(s.id)}
          >
            {s.label}
          </button>
        ))}
      </div>
      <div role="tabpanel" id="snippet-panel" aria-labelledby={`tab-${tab}`}>
        <CodeBlock code={current.code} label={current.file} />
      </div>
      <p class="card-foot">
        <button type="button" class="button" onClick={props.onDone}>
          I have stored the key
        </button>
      </p>
    </Card>
  );
}

function CreateForm(props: { onCreated: (key: string) => void }) {
  const [name, setName] = useState('');
  const [scopes, setScopes] = useState<string[]>(['leads:read']);
  const [error, setError] = useState<PortalError | null>(null);
  const submit = async (event: Event) => {
    event.preventDefault();
    setError(null);
    try {
      const created = await api.post('api-keys', { name, scopes });
      setName('');
      props.onCreated(created.apiKey);
    } catch (e) {
      setError(e as PortalError);
    }
  };
  return (
    <Card title="Create a key" id="create-key" description="For an AI tool (MCP), a script or your CRM.">
      <form onSubmit={submit} class="stack">
        <div class="field">
          <label for="key-name">Name</label>
          <input
            id="key-name"
            required
            maxLength={100}
            placeholder="Claude on Maria’s laptop"
            value={name}
            onInput={(e) => setName((e.target as HTMLInputElement).value)}
          />
        </div>
        <fieldset class="field">
          <legend>Access</legend>
          {SCOPES.map((s) => (
            <label key={s.value} class="check">
              <input
                type="checkbox"
                checked={scopes.includes(s.value)}
                onChange={(e) =>
                  setScopes(
                    (e.target as HTMLInputElement).checked
                      ? [...scopes, s.value]
                      : scopes.filter((v) => v !== s.value),
                  )
                }
              />
              <span>
                <span class="check-label">{s.label}</span>
                <span class="check-help">{s.help}</span>
              </span>
            </label>
          ))}
        </fieldset>
        <ErrorNote error={error} />
        <div>
          <button type="submit" class="button button-primary" disabled={scopes.length === 0}>
            Create key
          </button>
        </div>
      </form>
    </Card>
  );
}

export function ApiKeysPage() {
  const { data, error, reload } = useResource(() => api.get('api-keys'));
  const [newKey, setNewKey] = useState<string | null>(null);
  const [actionError, setActionError] = useState<PortalError | null>(null);
  const revoke = async (key: ApiKey) => {
    if (!window.confirm(`Revoke “${key.name}”? Anything using it stops working at once.`)) return;
    try {
      await api.post(`api-keys/${encodeURIComponent(key.id)}/revoke`);
      setActionError(null);
      reload();
    } catch (e) {
      setActionError(e as PortalError);
    }
  };
  const manage = canManage();
  return (
    <div class="page">
      <PageHeader
        title="API keys"
        lead="Personal keys for AI tools (MCP) and the REST API. Revoking one takes effect on its next call."
      />
      {newKey ? (
        <NewKey apiKey={newKey} onDone={() => setNewKey(null)} />
      ) : manage ? (
        <CreateForm
          onCreated={(k) => {
            setNewKey(k);
            reload();
          }}
        />
      ) : (
        <p class="notice">Viewers can see keys but not create or revoke them. Ask an owner or admin.</p>
      )}
      <ErrorNote error={error ?? actionError} />
      <Card title="Keys" id="keys">
        {!data ? (
          <Loading />
        ) : data.data.length === 0 ? (
          <Empty title="No API keys yet">
            Create one to connect Claude, Cursor or VS Code to your leads.
          </Empty>
        ) : (
          <TableWrap label="Key list">
            <table class="table table-stack">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Key</th>
                  <th scope="col">Access</th>
                  <th scope="col">Created</th>
                  <th scope="col">Last used</th>
                  <th scope="col">
                    <span class="visually-hidden">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.data.map((k) => (
                  <tr key={k.id} class={k.revokedAt ? 'row-muted' : ''}>
                    <td>
                      <span class="cell-main">{k.name}</span>
                      <span class="cell-sub">by {k.createdBy}</span>
                    </td>
                    <td data-label="Key">
                      <code>
                        {k.prefix}…{k.last4}
                      </code>
                    </td>
                    <td data-label="Access">
                      <span class="chips-inline">
                        {k.scopes.map((s) => (
                          <Badge key={s}>{s}</Badge>
                        ))}
                      </span>
                    </td>
                    <td class="num nowrap" data-label="Created">
                      {formatDate(k.createdAt)}
                    </td>
                    <td class="num nowrap" data-label="Last used">
                      {formatRelative(k.lastUsedAt)}
                    </td>
                    <td class="actions">
                      {k.revokedAt ? (
                        <Badge tone="bad">revoked</Badge>
                      ) : manage ? (
                        <button
                          type="button"
                          class="button button-small button-danger"
                          onClick={() => revoke(k)}
                        >
                          Revoke<span class="visually-hidden"> {k.name}</span>
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableWrap>
        )}
      </Card>
    </div>
  );
}
