import { defang } from '../../protocol/defang.ts';
import type { PortalLead } from '../../server/routes/portal/types.ts';
import { api, type PortalError } from '../api.ts';
import { type LeadStatus, LOST_REASONS, NEXT_STATUSES, StatusBadge } from './leads-table.tsx';

/**
 * A lead's status as a picker offering only the allowed moves (the API refuses the others too);
 * a lead with nowhere to go shows its badge.
 */
export function StatusPicker(props: {
  lead: PortalLead;
  onChanged: (lead: PortalLead) => void;
  onError: (e: PortalError) => void;
  label?: string;
}) {
  const options = NEXT_STATUSES[props.lead.status];
  if (options.length === 0) return <StatusBadge status={props.lead.status} />;
  return (
    <select
      class="select-small"
      aria-label={props.label ?? `Status of ${defang(props.lead.name)}`}
      value={props.lead.status}
      onChange={async (e) => {
        const select = e.target as HTMLSelectElement;
        // "lost:went_elsewhere": lost needs its reason, picked in the same step.
        const [status, lostReason] = select.value.split(':') as [LeadStatus, string | undefined];
        try {
          const { lead } = await api.patch(`leads/${encodeURIComponent(props.lead.leadId)}`, {
            status,
            ...(lostReason ? { lostReason: lostReason as keyof typeof LOST_REASONS } : {}),
          });
          props.onChanged(lead);
        } catch (error) {
          select.value = props.lead.status;
          props.onError(error as PortalError);
        }
      }}
    >
      <option value={props.lead.status}>{props.lead.status}</option>
      {options.flatMap((s) =>
        s === 'lost'
          ? Object.entries(LOST_REASONS).map(([reason, words]) => (
              <option key={reason} value={`lost:${reason}`}>
                lost — {words}
              </option>
            ))
          : [
              <option key={s} value={s}>
                {s}
              </option>,
            ],
      )}
    </select>
  );
}
