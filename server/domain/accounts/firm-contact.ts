import { z } from 'zod';
import type { FirmContact } from '../../contracts/firm-contact.ts';

const clear = z.union([z.literal(''), z.null()]).transform(() => null);
/** A field of the Contact section: a value sets it, `null` or an empty string clears it. */
const field = <T extends z.ZodType>(schema: T) => z.union([clear, schema]).optional();
const oneLine = (max: number, what: string) =>
  z
    .string()
    .trim()
    .min(1)
    .max(max, `${what} is at most ${max} characters`)
    .refine((v) => !/[\p{Cc}\u2028\u2029]/u.test(v), `${what} is one line of text`);

const PHONE = /^\+?[0-9 ().-]+(?:\s*(?:ext\.?|x)\s*[0-9]{1,6})?$/i;

/** "+1 (212) 555-0143", "212.555.0143 ext. 12": 7 to 15 digits, as people write them. */
const phone = oneLine(40, 'The phone number').refine((v) => {
  const digits = v.replace(/(?:ext\.?|x)\s*[0-9]+$/i, '').replace(/\D/g, '').length;
  return PHONE.test(v) && digits >= 7 && digits <= 15;
}, 'Expected a phone number such as +1 212 555 0143');

/** "smithlaw.com" becomes "https://smithlaw.com"; only http and https, with a host name. */
const website = oneLine(300, 'The web site')
  .transform((v) => (/^https?:\/\//i.test(v) ? v : `https://${v}`))
  .refine((v) => {
    try {
      const url = new URL(v);
      return (
        (url.protocol === 'https:' || url.protocol === 'http:') && url.hostname.includes('.') && !url.username
      );
    } catch {
      return false;
    }
  }, 'Expected a web address such as https://smithlaw.com')
  .transform((v) => new URL(v).href.replace(/\/$/, ''));

const address = z
  .string()
  .trim()
  .min(1)
  .max(300, 'The office address is at most 300 characters')
  .transform((v) =>
    v
      .split(/\r?\n/)
      .map((line) => line.trim())
      .filter(Boolean)
      .join('\n'),
  )
  .refine((v) => v.split('\n').length <= 4, 'The office address is at most four lines')
  .refine((v) => !/[\p{Cc}\u2028\u2029]/u.test(v.replaceAll('\n', ' ')), 'The office address is plain text');

/** The IANA name as the runtime spells it ("america/new_york" → "America/New_York"). */
function canonicalTimeZone(name: string): string | undefined {
  if (!/^[A-Za-z][A-Za-z0-9_+/-]{1,63}$/.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

const timeZone = z
  .string()
  .trim()
  .transform((v, ctx) => {
    const zone = canonicalTimeZone(v);
    if (!zone) ctx.addIssue({ code: 'custom', message: 'Expected a time zone such as America/New_York' });
    return zone ?? v;
  });

/** Settings → Firm → Contact: each field optional; `null` or "" clears it. */
export const FirmContactUpdateSchema = z
  .object({
    phone: field(phone),
    email: field(z.email('Expected an e-mail address such as office@firm.com').max(254).toLowerCase()),
    website: field(website),
    address: field(address),
    callToAction: field(oneLine(120, 'The call to action')),
    timeZone: field(timeZone),
  })
  .strict();

export type FirmContactUpdate = z.output<typeof FirmContactUpdateSchema>;

/** The stored contact after an update: given fields set or cleared, the others kept; null when empty. */
export function mergeContact(current: FirmContact | null, update: FirmContactUpdate): FirmContact | null {
  const next: Record<string, string> = { ...(current ?? {}) };
  for (const [key, value] of Object.entries(update)) {
    if (value === undefined) continue;
    if (value === null) delete next[key];
    else next[key] = value;
  }
  return Object.keys(next).length > 0 ? (next as FirmContact) : null;
}

/** Key order fixed so that equal contacts compare equal. */
export const sameContact = (a: FirmContact | null, b: FirmContact | null): boolean => {
  const keys = ['phone', 'email', 'website', 'address', 'callToAction', 'timeZone'] as const;
  return keys.every((k) => (a?.[k] ?? null) === (b?.[k] ?? null));
};
