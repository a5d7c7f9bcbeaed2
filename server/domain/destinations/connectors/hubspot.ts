import { z } from 'zod';
import type { Connector } from '../connector.ts';
import { jsonMessage } from '../connector.ts';

/**
 * HubSpot's Forms API v3, the authenticated submission, as documented at
 * https://developers.hubspot.com/docs/api-reference/legacy/marketing/forms/v3-legacy/submit-data-authenticated
 * (`POST https://api.hsforms.com/submissions/v3/integration/secure/submit/{portalId}/{formGuid}`,
 * a private app's token with the `forms` scope as a bearer token, JSON): `fields` (each with
 * `objectTypeId` `0-1`, a contact, `name` and `value`), `submittedAt` (milliseconds),
 * `context.pageUri`, and `legalConsentOptions.consent` with the text the visitor agreed to and,
 * when the firm names them, the subscription types it covers. Since March 2022 HubSpot refuses a
 * field the form does not have (https://developers.hubspot.com/changelog/validation-change-to-the-forms-api-submission-endpoints),
 * so only the contact fields and the properties the firm mapped are sent. Errors answer
 * `{ status: "error", message, errors: [{ message, errorType }] }`
 * (https://developers.hubspot.com/docs/faq/api-error-responses). HubSpot blocks an address for a
 * minute after ten 429s in one second: a destination has one request in flight and waits out
 * Retry-After, so this never happens.
 */
const PROPERTY = /^[a-z][a-z0-9_]{0,99}$/;

const Settings = z
  .object({
    portalId: z
      .string()
      .trim()
      .regex(/^\d{1,12}$/, 'the account id: digits only'),
    formGuid: z
      .string()
      .trim()
      .regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i, 'the form id, a GUID'),
    /** The form's property that receives the enquiry note (a multi-line text field on the form). */
    noteProperty: z
      .string()
      .trim()
      .regex(PROPERTY, 'a property name such as message')
      .nullable()
      .default('message'),
    subscriptionTypeIds: z.array(z.number().int().positive()).max(20).default([]),
    /** Figure key → contact property internal name. */
    figureFields: z
      .record(z.string().max(60), z.string().regex(PROPERTY, 'a property internal name'))
      .default({}),
  })
  .strict();
type HubSpotSettings = z.output<typeof Settings>;

export const hubspot: Connector<HubSpotSettings> = {
  vendor: 'hubspot',
  label: 'HubSpot',
  docs: [
    'https://developers.hubspot.com/docs/api-reference/legacy/marketing/forms/v3-legacy/submit-data-authenticated',
  ],
  credential: {
    label: 'Private app access token',
    where:
      'In HubSpot: Settings → Integrations → Private Apps → create an app with the "forms" scope, then copy its access token.',
  },
  settings: Settings as z.ZodType<HubSpotSettings>,
  settingHelp: {
    portalId: 'Your HubSpot account id (the number in the top-right account menu, also in every app URL).',
    formGuid: 'The form’s id: Marketing → Forms, open the form; the GUID in its address.',
    noteProperty:
      'The form field that receives the enquiry (a multi-line text field, "message" by default); empty for none.',
    subscriptionTypeIds:
      'Only when your portal has data-privacy settings on: the subscription type ids the consent covers.',
    figureFields: 'Optional: a figure (such as estateValue) to a contact property on the form.',
  },
  customFields: { label: 'Contact property (internal name)' },
  url: (s) =>
    `https://api.hsforms.com/submissions/v3/integration/secure/submit/${encodeURIComponent(s.portalId)}/${encodeURIComponent(s.formGuid)}`,
  build(lead, settings, token) {
    const field = (name: string, value: string) => ({ objectTypeId: '0-1', name, value });
    const fields = [
      ...(lead.name.first ? [field('firstname', lead.name.first)] : []),
      field('lastname', lead.name.last),
      field('email', lead.email),
      ...(lead.phone ? [field('phone', lead.phoneE164 ?? lead.phone)] : []),
      ...(settings.noteProperty ? [field(settings.noteProperty, lead.note)] : []),
      ...Object.entries(settings.figureFields).flatMap(([figure, property]) =>
        lead.figures[figure] === undefined ? [] : [field(property, String(lead.figures[figure]))],
      ),
    ];
    const consent = lead.lead.consent;
    const body = {
      fields,
      submittedAt: String(Date.parse(consent.agreedAt)),
      context: { ...(lead.page ? { pageUri: lead.page } : {}), pageName: `${lead.calculator} calculator` },
      legalConsentOptions: {
        consent: {
          consentToProcess: true,
          text: consent.text,
          communications: settings.subscriptionTypeIds.map((id) => ({
            value: true,
            subscriptionTypeId: id,
            text: consent.text,
          })),
        },
      },
    };
    return {
      url: this.url(settings),
      contentType: 'application/json',
      headers: { authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    };
  },
  messageOf: (_status, body) => jsonMessage(body),
};
