import { defang } from '../../../protocol/defang.ts';
import type { QuarantineReason } from '../../../protocol/quarantine.ts';

export type { QuarantineReason };

/**
 * How many leads one client network (IPv4 /24, IPv6 /64) may send one license in
 * `NETWORK_WINDOW_MS` before further ones are held: a household or an office sends one or two.
 */
const NETWORK_BURST = 3;
export const NETWORK_WINDOW_MS = 3_600_000;

/**
 * A short list of throwaway-inbox services (the common ones seen in form spam). Kept small on
 * purpose: a long list goes stale and holds real people's leads; the network signal does the rest.
 */
const DISPOSABLE_DOMAINS: ReadonlySet<string> = new Set([
  '10minutemail.com',
  'dispostable.com',
  'fakeinbox.com',
  'getnada.com',
  'guerrillamail.com',
  'maildrop.cc',
  'mailinator.com',
  'sharklasers.com',
  'temp-mail.org',
  'tempmail.com',
  'throwawaymail.com',
  'trashmail.com',
  'yopmail.com',
]);

/** A name a person types has no URL in it; `defang` knows what a URL looks like. */
const hasLink = (name: string) => defang(name) !== name || /\bwww\b/i.test(name);

function isDisposableEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const labels = domain.split('.');
  // A subdomain of a listed service counts too (x.mailinator.com).
  return labels.some((_l, i) => DISPOSABLE_DOMAINS.has(labels.slice(i).join('.')));
}

/**
 * The spam signals of one lead, given how many leads its network sent this license in the window
 * before it. Empty means live. Never the license's daily total: that only groups alerts.
 */
export function spamSignals(
  lead: { name: string; email: string },
  recentFromNetwork: number,
): QuarantineReason[] {
  const reasons: QuarantineReason[] = [];
  if (recentFromNetwork >= NETWORK_BURST) reasons.push('network_burst');
  if (hasLink(lead.name)) reasons.push('link_in_name');
  if (isDisposableEmail(lead.email)) reasons.push('disposable_email');
  return reasons;
}
