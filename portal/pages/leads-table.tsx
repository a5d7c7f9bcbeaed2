import { stateName } from '../../calculators/limits.ts';
import { defang } from '../../protocol/defang.ts';
import type { PortalLead } from '../../server/routes/portal/types.ts';
import { Badge, Link, TableWrap } from '../components/ui.tsx';
import { calculatorName, formatDateTime } from '../format.ts';

export type LeadStatus = PortalLead['status'];

/** The allowed moves (the API refuses the others with INVALID_TRANSITION). */
export const NEXT_STATUSES: Record<LeadStatus, LeadStatus[]> = {
  new: ['contacted', 'converted', 'lost'],
  contacted: ['converted', 'lost'],
  converted: [],
  lost: ['contacted'],
};

const TONE: Record<LeadStatus, 'accent' | 'warn' | 'good' | 'neutral'> = {
  new: 'accent',
  contacted: 'warn',
  converted: 'good',
  lost: 'neutral',
};
export const StatusBadge = (props: { status: LeadStatus }) => (
  <Badge tone={TONE[props.status]}>{props.status}</Badge>
);

/** A lead table; `statusCell` replaces the status badge (e.g. with a status picker). */
export function LeadsTable(props: {
  leads: PortalLead[];
  statusCell?: (lead: PortalLead) => preact.ComponentChildren;
}) {
  return (
    <TableWrap label="Lead list">
      <table class="table table-stack">
        <thead>
          <tr>
            <th scope="col">Person</th>
            <th scope="col">Calculator</th>
            <th scope="col">State</th>
            <th scope="col">Received</th>
            <th scope="col">Status</th>
          </tr>
        </thead>
        <tbody>
          {props.leads.map((lead) => (
            <tr key={lead.leadId}>
              <td>
                <span class="cell-main">
                  <Link href={`/portal/leads/${encodeURIComponent(lead.leadId)}`}>{defang(lead.name)}</Link>
                  {lead.quarantined ? <Badge tone="warn">quarantined</Badge> : null}
                  {lead.test ? <Badge>test</Badge> : null}
                </span>
                <span class="cell-sub">
                  <a href={`mailto:${lead.email}`}>{lead.email}</a>
                  {lead.phone ? ` · ${lead.phone}` : ''}
                </span>
              </td>
              <td data-label="Calculator">{calculatorName(lead.calculator)}</td>
              <td data-label="State">{lead.state ? stateName(lead.state) : '—'}</td>
              <td class="num nowrap" data-label="Received">
                {formatDateTime(lead.createdAt)}
              </td>
              <td data-label="Status">
                {props.statusCell ? props.statusCell(lead) : <StatusBadge status={lead.status} />}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </TableWrap>
  );
}
