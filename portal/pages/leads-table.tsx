import { stateName } from '../../calculators/limits.ts';
import { defang } from '../../protocol/defang.ts';
import type { PortalLead } from '../../server/routes/portal/types.ts';
import { Badge, Link, TableWrap } from '../components/ui.tsx';
import { calculatorName, formatDate, formatDateTime } from '../format.ts';

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

/** Why a lead was lost, in words (the API's `lostReason`). */
export const LOST_REASONS: Record<NonNullable<PortalLead['lostReason']>, string> = {
  went_elsewhere: 'went elsewhere',
  not_a_fit: 'not a fit',
  no_answer: 'no answer',
  other: 'other',
};

const PRIORITY_TONE = { high: 'bad', medium: 'warn', low: 'neutral' } as const;

/** The lead's priority as a badge; "not rated yet" when it has none (no result, or being re-rated). */
export const PriorityBadge = (props: { lead: PortalLead }) =>
  props.lead.priority ? (
    <Badge tone={PRIORITY_TONE[props.lead.priority.level]}>{props.lead.priority.level}</Badge>
  ) : (
    <span class="muted small">not rated yet</span>
  );

const usd = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD', maximumFractionDigits: 0 });

/** The lead's value: its calculator's main figure, whole dollars, with the figure's name. */
export const ValueCell = (props: { lead: PortalLead }) =>
  props.lead.value ? (
    <>
      <span class="cell-main num">{usd.format(props.lead.value.amount)}</span>
      <span class="cell-sub">{props.lead.value.label}</span>
    </>
  ) : (
    <span class="muted">—</span>
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
            <th scope="col">Priority</th>
            <th scope="col" class="num">
              Value
            </th>
            <th scope="col">Calculator</th>
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
                  {lead.language === 'es' ? <Badge>Spanish</Badge> : null}
                </span>
                <span class="cell-sub">
                  <a href={`mailto:${lead.email}`}>{lead.email}</a>
                  {lead.phone ? ` · ${lead.phone}` : ''}
                </span>
              </td>
              <td data-label="Priority" title={lead.priority ? lead.priority.reasons.join(' ') : undefined}>
                <PriorityBadge lead={lead} />
              </td>
              <td class="num nowrap" data-label="Value">
                <ValueCell lead={lead} />
              </td>
              <td data-label="Calculator">
                <span class="cell-main">{calculatorName(lead.calculator)}</span>
                <span class="cell-sub" data-label="State">
                  {lead.state ? stateName(lead.state) : '—'}
                </span>
              </td>
              <td class="num nowrap" data-label="Received" title={formatDateTime(lead.createdAt)}>
                {formatDate(lead.createdAt)}
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
