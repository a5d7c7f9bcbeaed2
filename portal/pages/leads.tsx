import { useState } from 'preact/hooks';
import { api, type PortalError } from '../api.ts';
import { Card, Empty, ErrorNote, Loading, PageHeader } from '../components/ui.tsx';
import { location$, navigate } from '../router.ts';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';
import { type Lead, type LeadStatus, LeadsTable, NEXT_STATUSES, StatusBadge } from './leads-table.tsx';

const FILTERS: { value: LeadStatus | ''; label: string }[] = [
  { value: '', label: 'All' },
  { value: 'new', label: 'New' },
  { value: 'contacted', label: 'Contacted' },
  { value: 'converted', label: 'Converted' },
];

interface Page {
  data: Lead[];
  nextCursor: string | null;
}

function StatusPicker(props: {
  lead: Lead;
  onChanged: (lead: Lead) => void;
  onError: (e: PortalError) => void;
}) {
  const options = NEXT_STATUSES[props.lead.status];
  if (options.length === 0) return <StatusBadge status={props.lead.status} />;
  return (
    <select
      class="select-small"
      aria-label={`Status of ${props.lead.name}`}
      value={props.lead.status}
      onChange={async (e) => {
        const status = (e.target as HTMLSelectElement).value as LeadStatus;
        try {
          const { lead } = await api.patch<{ lead: Lead }>(`leads/${encodeURIComponent(props.lead.leadId)}`, {
            status,
          });
          props.onChanged(lead);
        } catch (error) {
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

export function LeadsPage() {
  const status = (new URLSearchParams(location$.value.split('?')[1] ?? '').get('status') ?? '') as
    | LeadStatus
    | '';
  const [extra, setExtra] = useState<Lead[]>([]);
  const [cursor, setCursor] = useState<string | null>(null);
  const [changed, setChanged] = useState<Record<string, Lead>>({});
  const [error, setError] = useState<PortalError | null>(null);
  const { data, error: loadError } = useResource(async () => {
    const page = await api.get<Page>('leads', { status, limit: 50 });
    setExtra([]);
    setCursor(page.nextCursor);
    setChanged({});
    return page;
  }, [status]);
  const leads = [...(data?.data ?? []), ...extra].map((l) => changed[l.leadId] ?? l);
  const exportHref = `/v1/portal/leads/export.csv${status ? `?status=${status}` : ''}`;
  const more = async () => {
    if (!cursor) return;
    const page = await api.get<Page>('leads', { status, limit: 50, cursor });
    setExtra([...extra, ...page.data]);
    setCursor(page.nextCursor);
  };
  return (
    <div class="page">
      <PageHeader
        title="Leads"
        lead="People who used a calculator on your site and asked to be contacted."
        actions={
          <a class="button" href={exportHref} download>
            Export CSV
          </a>
        }
      />
      <fieldset class="segmented">
        <legend class="visually-hidden">Filter by status</legend>
        {FILTERS.map((f) => (
          <button
            key={f.value}
            type="button"
            class="segment"
            aria-pressed={status === f.value}
            onClick={() => navigate(f.value ? `/portal/leads?status=${f.value}` : '/portal/leads')}
          >
            {f.label}
          </button>
        ))}
      </fieldset>
      <ErrorNote error={loadError ?? error} />
      <Card>
        {!data ? (
          <Loading />
        ) : leads.length === 0 ? (
          <Empty title={status ? `No ${status} leads` : 'No leads yet'}>
            {status
              ? 'Try another filter.'
              : 'When a visitor sends the contact form under a calculator, the lead appears here within seconds.'}
          </Empty>
        ) : (
          <LeadsTable
            leads={leads}
            statusCell={
              canManage()
                ? (lead) => (
                    <StatusPicker
                      lead={lead}
                      onError={setError}
                      onChanged={(updated) => {
                        setError(null);
                        setChanged({ ...changed, [updated.leadId]: updated });
                      }}
                    />
                  )
                : undefined
            }
          />
        )}
        {cursor ? (
          <p class="card-foot">
            <button type="button" class="button" onClick={more}>
              Show more
            </button>
          </p>
        ) : null}
      </Card>
    </div>
  );
}
