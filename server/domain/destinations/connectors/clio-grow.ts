import { z } from 'zod';
import type { Connector } from '../connector.ts';
import { jsonMessage } from '../connector.ts';
import { withBothNames } from '../split-name.ts';

/**
 * Clio Grow's Lead Inbox API, as documented at
 * https://docs.developers.clio.com/guides/clio-grow/lead-inbox-api/ (where the firm finds its
 * inbox token: https://support.clio.com/hc/en-us/articles/360014305753, Settings → Integrations).
 * `POST /inbox_leads` on the firm's regional host, JSON with `Content-Type` and `Accept` both
 * `application/json`: `inbox_lead_token` beside an `inbox_lead` object whose required fields are
 * `from_first`, `from_last`, `from_message`, `referring_url` and `from_source` (`from_email` and
 * `from_phone` optional). The token travels in the body, so the inspector redacts it there.
 */
const CLIO_GROW_HOSTS = {
  us: 'grow.clio.com',
  eu: 'eu.grow.clio.com',
  ca: 'ca.grow.clio.com',
  au: 'au.grow.clio.com',
} as const;

const Settings = z
  .object({
    region: z.enum(['us', 'eu', 'ca', 'au']).default('us'),
    source: z.string().trim().min(1).max(80).default('svc calculators'),
  })
  .strict();
type ClioSettings = z.output<typeof Settings>;

export const clioGrow: Connector<ClioSettings> = {
  vendor: 'clio-grow',
  label: 'Clio Grow',
  docs: ['https://docs.developers.clio.com/guides/clio-grow/lead-inbox-api/'],
  credential: {
    label: 'Inbox token',
    where: 'In Clio Grow: Settings → Integrations → Inbox Token.',
  },
  settings: Settings as z.ZodType<ClioSettings>,
  settingHelp: {
    region: 'Where your Clio account lives: us (grow.clio.com), eu, ca or au — the host you sign in to.',
    source: 'How the lead inbox names this source (from_source); "svc calculators" unless you change it.',
  },
  customFields: null,
  url: (s) => `https://${CLIO_GROW_HOSTS[s.region]}/inbox_leads`,
  build(lead, settings, token) {
    const name = withBothNames(lead.name);
    const inboxLead: Record<string, string> = {
      from_first: name.first,
      from_last: name.last,
      from_email: lead.email,
      from_message: lead.note,
      // Required; the page when the widget reported it, else what the lead was (the docs allow static text).
      referring_url: lead.page ?? `${lead.calculator} calculator (page not reported)`,
      from_source: settings.source,
    };
    if (lead.phone) inboxLead.from_phone = lead.phoneE164 ?? lead.phone;
    return {
      url: this.url(settings),
      contentType: 'application/json',
      headers: { accept: 'application/json' },
      body: JSON.stringify({ inbox_lead_token: token, inbox_lead: inboxLead }),
    };
  },
  messageOf: (_status, body) => jsonMessage(body),
};
