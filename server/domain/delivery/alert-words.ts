import { stateName } from '../../../calculators/limits.ts';
import { defang } from '../../../protocol/defang.ts';
import { oneLine } from '../../mail/one-line.ts';

/**
 * What an alert mail says in words: the enquiry's kind, the figure it starts from, the visitor's
 * name cut to fit a subject line, and the time in the firm's own zone. Tables, so a calculator (or
 * a language) is a row.
 */
const ENQUIRY: Record<string, { kind: string; basis: string }> = {
  'estate-tax': { kind: 'estate-tax', basis: 'estate of' },
  'inheritance-tax': { kind: 'inheritance-tax', basis: 'inheritance of' },
  'probate-fees': { kind: 'probate-fees', basis: 'estate of' },
  'executor-commission': { kind: 'executor-commission', basis: 'estate of' },
  rmd: { kind: 'retirement-distribution', basis: 'balance of' },
};

const NAME_MAX = 60;

/** The visitor's name as a subject shows it: defanged, on one line, at most 60 characters. */
export function shortName(name: string): string {
  const clean = oneLine(defang(name)).replace(/\s+/g, ' ');
  const chars = [...clean];
  return chars.length <= NAME_MAX
    ? clean
    : `${chars
        .slice(0, NAME_MAX - 1)
        .join('')
        .trimEnd()}…`;
}

/** "$8.5 million", "$850,000", "$1.25 billion": a figure as people say it. */
export function roundMoney(amount: number): string {
  const abs = Math.abs(amount);
  const sign = amount < 0 ? '-' : '';
  for (const [size, word] of [
    [1e9, 'billion'],
    [1e6, 'million'],
  ] as const)
    if (abs >= size) return `${sign}$${Number((abs / size).toFixed(2)).toString()} ${word}`;
  return `${sign}$${Math.round(abs).toLocaleString('en-US')}`;
}

/** "New estate-tax enquiry: Priya Natarajan, New York, estate of $8.5 million". */
export function enquirySubject(input: {
  calculator: string;
  name: string;
  state: string | null;
  basis: number | undefined;
}): string {
  const words = ENQUIRY[input.calculator];
  const parts = [
    shortName(input.name) || 'a visitor',
    ...(input.state ? [stateName(input.state)] : []),
    ...(words && input.basis !== undefined ? [`${words.basis} ${roundMoney(input.basis)}`] : []),
  ];
  return `New ${words?.kind ?? input.calculator} enquiry: ${parts.join(', ')}`;
}

/**
 * "28 November 2026, 8:08 AM EST (America/New_York)"; UTC until the firm sets its zone, and then
 * it says where to set it. A zone the runtime no longer knows falls back to UTC, labelled.
 */
export function firmTime(iso: string, timeZone: string | undefined): string {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return oneLine(iso);
  const format = (zone: string) => {
    const parts = Object.fromEntries(
      new Intl.DateTimeFormat('en-US', {
        timeZone: zone,
        day: 'numeric',
        month: 'long',
        year: 'numeric',
        hour: 'numeric',
        minute: '2-digit',
        hour12: true,
        timeZoneName: 'short',
      })
        .formatToParts(at)
        .map((p) => [p.type, p.value]),
    );
    return `${parts.day} ${parts.month} ${parts.year}, ${parts.hour}:${parts.minute} ${parts.dayPeriod} ${parts.timeZoneName}`;
  };
  if (timeZone) {
    try {
      return `${format(timeZone)} (${timeZone})`;
    } catch {
      // An unknown zone: UTC below.
    }
  }
  return `${format('UTC')} (set your time zone in Settings → Firm)`;
}

/**
 * The visitor's address as a Reply-To, only when it is a plain, valid address: no display name,
 * no quotes, brackets, commas or line breaks, so it cannot add a header or a second recipient.
 */
export function replyToAddress(email: unknown): string | undefined {
  if (typeof email !== 'string' || email.length > 254) return undefined;
  return /^[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)+$/.test(
    email,
  ) && !email.includes('..')
    ? email
    : undefined;
}

/** `tel:` digits of a phone number as typed ("+1 (212) 555-0143" → "+12125550143"), or undefined. */
export function telHref(phone: unknown): string | undefined {
  if (typeof phone !== 'string') return undefined;
  const digits = phone.trim().replace(/(?!^\+)[^\d]/g, '');
  return /^\+?\d{5,15}$/.test(digits) ? `tel:${digits}` : undefined;
}
