import { useState } from 'preact/hooks';
import { defang } from '../../protocol/defang.ts';
import { quarantineReasonLabel } from '../../protocol/quarantine.ts';
import { api, type PortalError } from '../api.ts';
import { ErrorNote, Link } from '../components/ui.tsx';
import { formatDateTime, plural } from '../format.ts';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';

/**
 * Leads held as possible spam, on Overview and Leads: how many and why, the newest few with a
 * one-step release (the alert and webhook go out then). Says nothing when none are held.
 */
export function HeldLeadsBanner(props: { onReleased?: () => void }) {
  const { data, reload } = useResource(() => api.get('leads/held'));
  const [error, setError] = useState<PortalError | null>(null);
  if (!data || data.total === 0) return null;
  const manage = canManage();
  const release = async (leadId: string) => {
    try {
      await api.post(`leads/${encodeURIComponent(leadId)}/release`);
      setError(null);
      await reload();
      props.onReleased?.();
    } catch (e) {
      setError(e as PortalError);
    }
  };
  const reasons = Object.entries(data.byReason)
    .map(([reason, n]) => `${quarantineReasonLabel(reason)} (${n})`)
    .join(', ');
  return (
    <section class="notice notice-warn held-banner" aria-labelledby="held-title">
      <h2 id="held-title" class="held-title">
        {plural(data.total, 'lead')} held as possible spam
      </h2>
      <p>
        Held for: {reasons}. They are stored but were not alerted or sent to webhooks. Release the real ones;
        each is then alerted and delivered as a new lead.
      </p>
      <ul class="held-list">
        {data.latest.map((lead) => (
          <li key={lead.leadId} class="held-item">
            <span class="held-who">
              <Link href={`/portal/leads/${encodeURIComponent(lead.leadId)}`}>{defang(lead.name)}</Link>{' '}
              <span class="muted">
                {lead.email} · {formatDateTime(lead.createdAt)} ·{' '}
                {lead.reasons.map(quarantineReasonLabel).join(', ')}
              </span>
            </span>
            {manage ? (
              <button type="button" class="button button-small" onClick={() => release(lead.leadId)}>
                Release<span class="visually-hidden"> {defang(lead.name)}</span>
              </button>
            ) : null}
          </li>
        ))}
      </ul>
      {data.total > data.latest.length ? (
        <p>
          <Link href="/portal/leads?quarantined=only">All {data.total} held leads →</Link>
        </p>
      ) : null}
      <ErrorNote error={error} />
    </section>
  );
}
