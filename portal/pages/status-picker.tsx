import { defang } from '../../protocol/defang.ts';
import type { PortalLead } from '../../server/routes/portal/types.ts';
import { api, type PortalError } from '../api.ts';
import { type LeadStatus, NEXT_STATUSES, StatusBadge } from './leads-table.tsx';

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
        const status = select.value as LeadStatus;
        try {
          const { lead } = await api.patch(`leads/${encodeURIComponent(props.lead.leadId)}`, {
            status,
          });
          props.onChanged(lead);
        } catch (error) {
          select.value = props.lead.status;
          props.onError(error as PortalError);
        }
      }}
    >
      <option value={props.lead.status}>{props.lead.status}</option>
      {options.map((s) => (
        <option key={s} value={s}>
          {s}
        </option>
      ))}
    </select>
  );
}
