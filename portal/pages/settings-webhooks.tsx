import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { useAction } from '../components/action.ts';
import { Card, Empty, ErrorNote, Loading, PageHeader } from '../components/ui.tsx';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { EndpointCard, EventChoice, SecretOnce } from './webhook-endpoint.tsx';

function CreateEndpoint(props: { types: string[]; onCreated: () => void }) {
  const [url, setUrl] = useState('');
  const [description, setDescription] = useState('');
  const [events, setEvents] = useState<string[]>(['lead.created']);
  const [includeTest, setIncludeTest] = useState(false);
  const [secret, setSecret] = useState<string | null>(null);
  const action = useAction();
  const submit = async (event: Event) => {
    event.preventDefault();
    const created = await action.run(() =>
      api.post('webhooks', {
        url,
        events,
        includeTest,
        ...(description.trim() ? { description } : {}),
      }),
    );
    if (!created) return;
    setSecret(created.secret);
    setUrl('');
    setDescription('');
    props.onCreated();
  };
  const urlError = action.error?.details.find((d) => d.path === 'url')?.message;
  if (secret) return <SecretOnce secret={secret} onDone={() => setSecret(null)} />;
  return (
    <form class="stack" onSubmit={submit}>
      <div class="field">
        <label for="hook-url">Endpoint URL</label>
        <input
          id="hook-url"
          type="url"
          required
          maxLength={2000}
          placeholder="https://hooks.zapier.com/hooks/catch/…"
          aria-describedby="hook-url-help"
          value={url}
          onInput={(e) => setUrl((e.target as HTMLInputElement).value)}
        />
        <p class="help" id="hook-url-help">
          HTTPS. Each delivery is signed (Standard Webhooks headers) with the endpoint’s own secret.
        </p>
        {urlError ? <p class="error-note">{urlError}</p> : null}
      </div>
      <div class="field">
        <label for="hook-description">Description (optional)</label>
        <input
          id="hook-description"
          maxLength={200}
          placeholder="Zapier → HubSpot"
          value={description}
          onInput={(e) => setDescription((e.target as HTMLInputElement).value)}
        />
      </div>
      <EventChoice idPrefix="new-ev" types={props.types} value={events} onChange={setEvents} />
      <label class="check" for="hook-test">
        <input
          id="hook-test"
          type="checkbox"
          checked={includeTest}
          onChange={(e) => setIncludeTest((e.target as HTMLInputElement).checked)}
        />
        <span>
          <span class="check-label">Also send test-mode data</span>
          <span class="check-help">Leads from development hosts and the portal preview.</span>
        </span>
      </label>
      <ErrorNote error={action.error && !urlError ? action.error : null} />
      <div>
        <button type="submit" class="button button-primary" disabled={events.length === 0 || action.busy}>
          Add endpoint
        </button>
      </div>
    </form>
  );
}

export function SettingsWebhooksPage() {
  const { data, error, reload } = useResource(() => api.get('webhooks'));
  return (
    <div class="page">
      <PageHeader
        title="Webhooks"
        lead="Send each new lead to your CRM, Zapier or Make within seconds, signed so your receiver can trust it."
      />
      {!canManage() ? (
        <p class="notice">Viewers can see endpoints and deliveries but not change them.</p>
      ) : null}
      <ErrorNote error={error} />
      {!data ? (
        <Loading />
      ) : (
        <>
          {data.data.length === 0 ? (
            <Card>
              <Empty title="No endpoints yet">Add one to receive leads as they arrive.</Empty>
            </Card>
          ) : (
            data.data.map((e) => (
              <EndpointCard
                key={`${e.id}-${e.events.join()}-${e.status}`}
                endpoint={e}
                types={data.eventTypes}
                onChanged={reload}
              />
            ))
          )}
          {canManage() ? (
            <Card title="Add an endpoint" id="add-endpoint">
              <CreateEndpoint types={data.eventTypes} onCreated={reload} />
            </Card>
          ) : null}
        </>
      )}
    </div>
  );
}
