import type { PortalLicense } from '../server/routes/portal/types.ts';

const dateFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium' });
const dateTimeFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

export const formatDate = (iso: string | null | undefined) => (iso ? dateFmt.format(new Date(iso)) : '—');

const dayFmt = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeZone: 'UTC' });
/**
 * A sentence from the API with its UTC days (`2027-11-28`) written as the portal writes dates
 * (`Nov 28, 2027`), so a license's status line reads like the facts beside it.
 */
export const readableDays = (text: string) =>
  text.replace(/\b\d{4}-\d{2}-\d{2}\b/g, (day) => dayFmt.format(new Date(`${day}T00:00:00Z`)));
export const formatDateTime = (iso: string | null | undefined) =>
  iso ? dateTimeFmt.format(new Date(iso)) : '—';

const rtf = new Intl.RelativeTimeFormat('en', { numeric: 'auto' });
/** "3 minutes ago", "yesterday"; "never" for null. */
export function formatRelative(iso: string | null | undefined, now = Date.now()): string {
  if (!iso) return 'never';
  const seconds = Math.round((new Date(iso).getTime() - now) / 1000);
  const abs = Math.abs(seconds);
  if (abs < 60) return 'just now';
  if (abs < 3600) return rtf.format(Math.round(seconds / 60), 'minute');
  if (abs < 86_400) return rtf.format(Math.round(seconds / 3600), 'hour');
  if (abs < 30 * 86_400) return rtf.format(Math.round(seconds / 86_400), 'day');
  return formatDate(iso);
}

export const plural = (n: number, one: string, many = `${one}s`) =>
  `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

// The calculators' own names, as the widget, the PDF and the alert mail show them.
export { CALCULATOR_NAMES as CALCULATORS, calculatorName } from '../calculators/names.ts';

/** A license's status as a sentence a firm's office manager reads at a glance. */
export function licenseStatusWords(l: PortalLicense): string {
  switch (l.status) {
    case 'trial':
      return `Trial — ends ${formatDate(l.trialEndsAt)}`;
    case 'active':
      return `Active — paid through ${formatDate(l.paidThrough)}`;
    case 'grace':
      return `Payment overdue — widgets keep working until ${formatDate(l.graceEndsAt)}`;
    case 'expired':
      return `Expired on ${formatDate(l.expiresAt)} — widgets are off`;
    case 'revoked':
      return `Revoked on ${formatDate(l.revokedAt)}`;
  }
}

export const STATUS_TONE: Record<PortalLicense['status'], 'good' | 'warn' | 'bad'> = {
  trial: 'warn',
  active: 'good',
  grace: 'warn',
  expired: 'bad',
  revoked: 'bad',
};

/** Domain as people read it, with the punycode form beside it when they differ. */
export const domainLabel = (d: { ascii: string; unicode: string }) =>
  d.ascii === d.unicode ? d.ascii : `${d.unicode} (${d.ascii})`;
