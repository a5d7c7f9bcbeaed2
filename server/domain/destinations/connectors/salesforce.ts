import { z } from 'zod';
import type { Connector } from '../connector.ts';

/**
 * Salesforce Web-to-Lead, as documented at
 * https://help.salesforce.com/s/articleView?id=sf.setting_up_web-to-lead.htm (the 500-a-day limit
 * and what happens past it: Salesforce's "How many leads can we capture from our website?", also
 * summarised at https://micropyramid.com/blog/how-to-configure-web-to-lead-generation-in-salesforce/): a form-encoded POST to
 * `https://webto.salesforce.com/servlet/servlet.WebToLead?encoding=UTF-8` (or the org's My Domain
 * host) with the org's `oid` and the lead's standard field names (`first_name`, `last_name`,
 * `email`, `phone`, `state`, `lead_source`, `description`), custom fields by their API name. There
 * is no credential: the org id identifies the org. Web-to-Lead answers 200 even when it drops the
 * lead (over 500 a day, reCAPTCHA required by the org, a validation rule), so "delivered" here
 * means Salesforce took the request, and the portal and docs say so.
 */
const FIELD = /^[A-Za-z][A-Za-z0-9_]{0,79}$/;

const Settings = z
  .object({
    /** An org's My Domain host (`acme.my.salesforce.com`) instead of webto.salesforce.com. */
    myDomain: z
      .string()
      .trim()
      .toLowerCase()
      .regex(
        /^[a-z0-9-]+(\.[a-z0-9-]+)*\.my\.salesforce\.com$/,
        'a My Domain host ending in .my.salesforce.com',
      )
      .nullable()
      .default(null),
    leadSource: z.string().trim().min(1).max(40).default('Web'),
    /** Figure key → Lead field API name (custom fields end in __c). */
    figureFields: z.record(z.string().max(60), z.string().regex(FIELD, 'a field API name')).default({}),
  })
  .strict();
type SalesforceSettings = z.output<typeof Settings>;

export const salesforce: Connector<SalesforceSettings> = {
  vendor: 'salesforce',
  label: 'Salesforce',
  docs: ['https://help.salesforce.com/s/articleView?id=sf.setting_up_web-to-lead.htm'],
  credential: {
    label: 'Organization ID (oid)',
    where:
      'In Salesforce: Setup → Company Information → Salesforce.com Organization ID (15 characters, starts 00D).',
  },
  settings: Settings as z.ZodType<SalesforceSettings>,
  settingHelp: {
    myDomain: 'Optional: your My Domain host (acme.my.salesforce.com) if your org posts Web-to-Lead there.',
    leadSource: 'The Lead Source new leads get ("Web" unless you choose another value of that picklist).',
    figureFields:
      'Optional: a figure (such as estateValue) to a Lead field API name (custom fields end in __c).',
  },
  customFields: { label: 'Lead field API name' },
  url: (s) => `https://${s.myDomain ?? 'webto.salesforce.com'}/servlet/servlet.WebToLead?encoding=UTF-8`,
  build(lead, settings, oid) {
    const form = new URLSearchParams();
    form.set('oid', oid);
    if (lead.name.first) form.set('first_name', lead.name.first);
    form.set('last_name', lead.name.last);
    form.set('email', lead.email);
    if (lead.phone) form.set('phone', lead.phoneE164 ?? lead.phone);
    if (lead.lead.state) form.set('state', lead.lead.state);
    form.set('lead_source', settings.leadSource);
    form.set('description', lead.note);
    for (const [figure, field] of Object.entries(settings.figureFields)) {
      const value = lead.figures[figure];
      if (value !== undefined) form.set(field, String(value));
    }
    return {
      url: this.url(settings),
      contentType: 'application/x-www-form-urlencoded',
      headers: {},
      body: form.toString(),
    };
  },
  messageOf: (status, body) => body.trim().slice(0, 300) || `HTTP ${status}`,
};
