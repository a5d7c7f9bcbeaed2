import { api } from '../api.ts';
import { Card, Empty, ErrorNote, Link, Loading, PageHeader } from '../components/ui.tsx';
import { licenseStatusWords, plural, STATUS_TONE } from '../format.ts';
import { useResource } from '../use-resource.ts';
import { FunnelCard } from './funnel-card.tsx';
import { HeldLeadsBanner } from './held-leads-banner.tsx';
import { LeadsTable } from './leads-table.tsx';
import { RuleNoticesBanner } from './rule-notices-banner.tsx';
import { DestinationsBanner } from './settings-destinations.tsx';
import { TEST_MODE_SENTENCE, TestLeadsNotice } from './test-leads-notice.tsx';

/** Last month's stretch the count compares with: its 1st to the same day (cut at its end), in UTC. */
export function sameStretchLastMonth(nowIso: string): string {
  const now = new Date(nowIso);
  const start = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 1, 1));
  const days = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 0)).getUTCDate();
  const month = start.toLocaleString('en-US', { month: 'short', timeZone: 'UTC' });
  return `${month} 1–${Math.min(now.getUTCDate(), days)}`;
}

function Change(props: { now: number; before: number; stretch: string }) {
  const diff = props.now - props.before;
  if (props.before === 0 && props.now === 0) return <span class="muted">None in {props.stretch} either</span>;
  const words =
    diff === 0
      ? `the same as ${props.stretch}`
      : `${diff > 0 ? '+' : '−'}${Math.abs(diff)} vs ${props.stretch}`;
  return (
    <span class={diff > 0 ? 'delta delta-up' : diff < 0 ? 'delta delta-down' : 'muted'}>
      {words} ({props.before})
    </span>
  );
}

export function OverviewPage() {
  const { data, error, reload } = useResource(() => api.get('overview'));
  // Where the calculators are live (best effort: the card reads without it).
  const embeds = useResource(() => api.get('embeds'));
  const liveOn = (licenseId: string) => embeds.data?.data.filter((e) => e.licenseId === licenseId).length;
  return (
    <div class="page">
      <PageHeader title="Overview" lead={data ? data.firm.name : undefined} />
      <ErrorNote error={error} />
      <DestinationsBanner />
      <HeldLeadsBanner onReleased={reload} />
      <RuleNoticesBanner />
      {!data ? (
        <Loading />
      ) : (
        <>
          <div class="stats">
            <div class="stat card">
              <p class="stat-label">Leads this month</p>
              <p class="stat-value num">{data.leads.thisMonth.toLocaleString('en-US')}</p>
              <Change
                now={data.leads.thisMonth}
                before={data.leads.lastMonth}
                stretch={sameStretchLastMonth(data.now)}
              />
            </div>
            {data.licenses.map((l) => (
              <div class="stat card" key={l.id}>
                <p class="stat-label">
                  {l.plan[0]!.toUpperCase() + l.plan.slice(1)} license · …{l.keyLast4}
                </p>
                <p class={`stat-status tone-${STATUS_TONE[l.status]}`}>{licenseStatusWords(l)}</p>
                <label class="meter-label" for={`seats-${l.id}`}>
                  <span class="num">
                    {l.seatsUsed} of {plural(l.seats, 'seat')}
                  </span>{' '}
                  used
                </label>
                <meter id={`seats-${l.id}`} min={0} max={Math.max(1, l.seats)} value={l.seatsUsed} />
                {liveOn(l.id) !== undefined ? (
                  <p class="stat-note">
                    <Link href={`/portal/licenses#live-${l.id}`}>
                      {liveOn(l.id)
                        ? `Calculators live on ${plural(liveOn(l.id)!, 'site')}`
                        : 'Not live on a site yet'}
                    </Link>
                    {' · embeds take no seat'}
                  </p>
                ) : null}
              </div>
            ))}
          </div>
          <TestLeadsNotice hidden={data.leads.hiddenTest} href="/portal/leads?test=include" />
          <FunnelCard />
          <Card title="Latest leads" id="latest">
            {data.leads.latest.length === 0 ? (
              <Empty title="No leads yet">
                Put a calculator on your site (see <Link href="/portal/embed">Embed code</Link>); people who
                ask to be contacted appear here. {TEST_MODE_SENTENCE}
              </Empty>
            ) : (
              <>
                <LeadsTable leads={data.leads.latest} />
                <p class="card-foot">
                  <Link href="/portal/leads">All leads →</Link>
                </p>
              </>
            )}
          </Card>
        </>
      )}
    </div>
  );
}
