import { useState } from 'preact/hooks';
import { api } from '../api.ts';
import { Card, Empty, ErrorNote, Loading, PageHeader } from '../components/ui.tsx';
import { formatDateTime } from '../format.ts';
import { useResource } from '../use-resource.ts';

interface Event {
  id: string;
  at: string;
  actor: string;
  action: string;
  subject: string | null;
  data: Record<string, unknown>;
}

/** Each audit action in words; unknown actions show as they are. */
function describe(e: Event): string {
  const d = e.data;
  switch (e.action) {
    case 'portal.signed_in':
      return `Signed in with ${d.method === 'passkey' ? 'a passkey' : 'an e-mail link'}`;
    case 'apikey.created':
      return `Created API key “${String(d.name ?? '')}” (${(d.scopes as string[] | undefined)?.join(', ') ?? 'admin'})`;
    case 'apikey.revoked':
      return 'Revoked an API key';
    case 'lead.status_changed':
      return `Marked a lead as ${String(d.status)}`;
    case 'member.invited':
      return `Invited ${String(d.email)} as ${String(d.role)}`;
    case 'member.removed':
      return 'Removed a member';
    case 'passkey.added':
      return 'Added a passkey';
    case 'connect.approved':
      return `Connected ${String(d.clientId)} on ${String(d.site)}`;
    default:
      return e.action;
  }
}

const who = (actor: string) => (actor.startsWith('user:') ? actor.slice(5) : actor);

export function ActivityPage() {
  const [more, setMore] = useState<Event[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const { data, error } = useResource(async () => {
    const page = await api.get<{ data: Event[]; nextCursor: string | null }>('activity', { limit: 50 });
    setCursor(page.nextCursor);
    return page;
  });
  const events = [...(data?.data ?? []), ...more];
  const loadMore = async () => {
    if (!cursor) return;
    const page = await api.get<{ data: Event[]; nextCursor: string | null }>('activity', {
      limit: 50,
      cursor,
    });
    setMore([...more, ...page.data]);
    setCursor(page.nextCursor);
  };
  return (
    <div class="page">
      <PageHeader title="Activity" lead="Who did what in your firm’s account, newest first." />
      <ErrorNote error={error} />
      <Card>
        {!data ? (
          <Loading />
        ) : events.length === 0 ? (
          <Empty title="Nothing has happened yet">
            Sign-ins, key changes and lead updates will be listed here.
          </Empty>
        ) : (
          <ol class="timeline">
            {events.map((e) => (
              <li key={e.id} class="timeline-row">
                <span class="timeline-what">{describe(e)}</span>
                <span class="timeline-meta">
                  <span>{who(e.actor)}</span>
                  <time class="num" dateTime={e.at}>
                    {formatDateTime(e.at)}
                  </time>
                </span>
              </li>
            ))}
          </ol>
        )}
        {cursor ? (
          <p class="card-foot">
            <button type="button" class="button" onClick={loadMore}>
              Show older
            </button>
          </p>
        ) : null}
      </Card>
    </div>
  );
}
