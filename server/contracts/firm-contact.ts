import { z } from '@hono/zod-openapi';

/**
 * How a firm's visitors reach it: what Settings → Firm → Contact stores, and what the PDF's
 * contact block, the alert mail and the widget's thank-you state show. Every field is optional;
 * the time zone (an IANA name) also sets the times in alert mails (UTC until chosen).
 */
export const FirmContactSchema = z
  .object({
    phone: z.string().optional().openapi({ example: '+1 212 555 0143' }),
    email: z.string().optional().openapi({ example: 'office@smithlaw.com' }),
    website: z.string().optional().openapi({ example: 'https://smithlaw.com' }),
    address: z.string().optional().openapi({
      description: 'Up to four lines, as on the letterhead',
      example: '100 Main St\nNew York, NY 10001',
    }),
    callToAction: z.string().optional().openapi({
      description: 'One line, on every page of the PDF',
      example: 'Call us to discuss your estate plan',
    }),
    timeZone: z.string().optional().openapi({
      description: 'IANA name; alert mails show times in it (UTC until set)',
      example: 'America/New_York',
    }),
  })
  .openapi('FirmContact');

export type FirmContact = z.infer<typeof FirmContactSchema>;
