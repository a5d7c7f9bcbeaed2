import { z } from 'zod';
import type { Connector } from '../connector.ts';
import { jsonMessage } from '../connector.ts';
import { withBothNames } from '../split-name.ts';

/**
 * Wealthbox's API v1, "Create a new contact", as documented at
 * https://dev.wealthbox.com/#contacts-create-a-new-contact-post (authentication:
 * https://dev.wealthbox.com/#authentication): `POST https://api.crmworkspace.com/v1/contacts`,
 * JSON, the user's personal access token in the `ACCESS_TOKEN` header. A `Person` needs
 * `first_name` and `last_name`; e-mail and phone go in `email_addresses` and `phone_numbers`
 * (`address`, `principal`, `kind`), the enquiry in `background_information`, and figures the firm
 * mapped in `custom_fields` (`id`, `value`).
 */
const Settings = z
  .object({
    contactType: z.enum(['Prospect', 'Client', 'Other']).default('Prospect'),
    /** Figure key → Wealthbox custom field id. */
    figureFields: z.record(z.string().max(60), z.number().int().positive()).default({}),
  })
  .strict();
type WealthboxSettings = z.output<typeof Settings>;

export const wealthbox: Connector<WealthboxSettings> = {
  vendor: 'wealthbox',
  label: 'Wealthbox',
  docs: ['https://dev.wealthbox.com/#contacts-create-a-new-contact-post'],
  credential: {
    label: 'API access token',
    where: 'In Wealthbox: Settings → API Access → Create Access Token.',
  },
  settings: Settings as z.ZodType<WealthboxSettings>,
  settingHelp: {
    contactType: 'The contact type new people get: Prospect unless you choose otherwise.',
    figureFields:
      'Optional: a figure (such as estateValue) to the id of a Wealthbox custom field for contacts.',
  },
  customFields: { label: 'Custom field id' },
  url: () => 'https://api.crmworkspace.com/v1/contacts',
  build(lead, settings, token) {
    const name = withBothNames(lead.name);
    const customFields = Object.entries(settings.figureFields).flatMap(([figure, id]) =>
      lead.figures[figure] === undefined ? [] : [{ id, value: String(lead.figures[figure]) }],
    );
    const body = {
      type: 'Person',
      first_name: name.first,
      last_name: name.last,
      contact_type: settings.contactType,
      contact_source: 'Web Site',
      background_information: lead.note,
      email_addresses: [{ address: lead.email, principal: true, kind: 'Personal' }],
      ...(lead.phone
        ? { phone_numbers: [{ address: lead.phoneE164 ?? lead.phone, principal: true, kind: 'Mobile' }] }
        : {}),
      ...(customFields.length ? { custom_fields: customFields } : {}),
    };
    return {
      url: this.url(settings),
      contentType: 'application/json',
      headers: { accept: 'application/json', ACCESS_TOKEN: token },
      body: JSON.stringify(body),
    };
  },
  messageOf: (_status, body) => jsonMessage(body),
};
