import { useState } from 'preact/hooks';
import type { ActivityEvent } from '../../server/routes/portal/types.ts';
import { api } from '../api.ts';
import { Card, Empty, ErrorNote, Link, Loading, PageHeader } from '../components/ui.tsx';
import { formatDateTime } from '../format.ts';
import { location$, navigate } from '../router.ts';
import { useResource } from '../use-resource.ts';
import { describeActivity } from './activity-labels.ts';

/** The filter's kinds (the server maps each to its audit actions). */
const KINDS: [string, string][] = [
  ['', 'Everything'],
  ['sign-ins', 'Sign-ins and passkeys'],
  ['api-keys', 'API keys'],
  ['licenses', 'Licenses, domains and seats'],
  ['connect', 'Connected sites'],
  ['leads', 'Leads and privacy'],
  ['members', 'Members'],
  ['settings', 'Firm settings and webhooks'],
  ['ai-tools', 'AI assistant queries'],
  ['alerts', 'Alerts'],
];

/** Entries about a lead that still exists (deleted leads have nothing to open). */
const LEAD_ACTIONS = new Set(['lead.status_changed', 'lead.note_added', 'lead.released']);

export function ActivityPage() {
  const kind = new URLSearchParams(location$.value.split('?')[1] ?? '').get('kind') ?? '';
  const [more, setMore] = useState<ActivityEvent[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const { data, error } = useResource(async () => {
    const page = await api.get('activity', { limit: 50, kind });
    setMore([]);
    setCursor(page.nextCursor);
    return page;
  }, [kind]);
  const events = [...(data?.data ?? []), ...more];
  const loadMore = async () => {
    if (!cursor) return;
    const page = await api.get('activity', { limit: 50, kind, cursor });
    setMore([...more, ...page.data]);
    setCursor(page.nextCursor);
  };
  return (
    <div class="page">
      <PageHeader title="Activity" lead="Who did what in your firm’s account, newest first." />
      <div class="filters filters-one">
        <div class="field">
          <label for="activity-kind">Show</label>
          <select
            id="activity-kind"
            value={kind}
            onChange={(e) => {
              const value = (e.target as HTMLSelectElement).value;
              navigate(value ? `/portal/activity?kind=${value}` : '/portal/activity', true);
            }}
          >
            {KINDS.map(([value, label]) => (
              <option key={value} value={value}>
                {label}
              </option>
            ))}
          </select>
        </div>
      </div>
      <ErrorNote error={error} />
      <Card>
        {!data ? (
          <Loading />
        ) : events.length === 0 ? (
          <Empty title={kind ? 'Nothing of this kind yet' : 'Nothing has happened yet'}>
            Sign-ins, key changes, license changes and lead updates will be listed here.
          </Empty>
        ) : (
          <ol class="timeline">
            {events.map((e) => (
              <li key={e.id} class="timeline-row">
                <span class="timeline-what">
                  {describeActivity(e)}
                  {LEAD_ACTIONS.has(e.action) && e.subject ? (
                    <>
                      {' · '}
                      <Link href={`/portal/leads/${encodeURIComponent(e.subject)}`}>View lead</Link>
                    </>
                  ) : null}
                </span>
                <span class="timeline-meta">
                  <span>{e.actorLabel ?? e.actor}</span>
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
