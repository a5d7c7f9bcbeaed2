import { DOTS, HOST_LIKE } from '../../../protocol/defang.ts';
import type { QuarantineReason } from '../../../protocol/quarantine.ts';

export type { QuarantineReason };

/**
 * How many leads one client network (IPv4 /24, IPv6 /64) may send one license in
 * `NETWORK_WINDOW_MS` before further ones are held: a household or an office sends one or two.
 */
const NETWORK_BURST = 3;
export const NETWORK_WINDOW_MS = 3_600_000;

/**
 * IPv6 farming: whoever holds a /48 (a business line, a cheap server provider) has 65,536 /64s and
 * can send each lead from a fresh one. So leads are also counted by /48 over the same window: past
 * BLOCK_BURST of them (from any of its /64s) further ones are held. An office's few visitors on a
 * few LANs stay far below it; IPv4 needs no wider count, a /24 already is the network.
 */
const BLOCK_BURST = 6;

/**
 * The /48 of a stored IPv6 network key (`2001:db8:77:1::/64` → `2001:db8:77:`), as the common
 * start of every /64 key inside it (keys are written with leading zeros dropped); null for IPv4.
 */
export function blockOf(sourceNet: string | null): string | null {
  const match = sourceNet
    ? /^([0-9a-f]{1,4}:[0-9a-f]{1,4}:[0-9a-f]{1,4}:)[0-9a-f]{1,4}::\/64$/.exec(sourceNet)
    : null;
  return match ? match[1]! : null;
}

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

/**
 * Top-level domains common in form spam (and the ones every mail client links): a title-case
 * last label in this list is a link even when it looks like a name (`Spam.Com`).
 */
const COMMON_TLDS: ReadonlySet<string> = new Set(
  'com net org info biz io co me ly us uk de ru cn su xyz top online site shop store club app live pro tk ml ga cf gq buzz icu vip win loan click link'.split(
    ' ',
  ),
);

/**
 * A dotted word that a person types as a name, not a host: every part title-case or an initial
 * (`Dr.Jones`, `St.John`, `Mr.J.Smith`), no path after it, and no common top-level domain last.
 */
function isNameLike(host: string, after: string): boolean {
  if (after.startsWith('/')) return false;
  const labels = host.split(DOTS);
  const last = labels.at(-1)!.toLowerCase();
  return !COMMON_TLDS.has(last) && labels.every((l) => /^\p{Lu}\p{Ll}*$/u.test(l));
}

/**
 * A name a person types has no URL in it. A link is a scheme (`http://`, `ftp://`), `www`, an IP
 * address, or a dotted host (`spam.example`, `bit.ly/abc`); dotted words written like a name
 * (`Dr.Jones`, `St.John`) are not, although `defang` still defangs them wherever they are shown.
 */
export function hasLink(name: string): boolean {
  if (/\b[a-z][a-z0-9+.-]*:\/\//i.test(name) || /\bwww\b/i.test(name)) return true;
  for (const match of name.matchAll(HOST_LIKE)) {
    const after = name.slice(match.index + match[0].length);
    if (!isNameLike(match[0], after)) return true;
  }
  return false;
}

function isDisposableEmail(email: string): boolean {
  const domain = email.slice(email.lastIndexOf('@') + 1).toLowerCase();
  const labels = domain.split('.');
  // A subdomain of a listed service counts too (x.mailinator.com).
  return labels.some((_l, i) => DISPOSABLE_DOMAINS.has(labels.slice(i).join('.')));
}

/**
 * The spam signals of one lead, given how many leads its network (and, for IPv6, its /48 block)
 * sent this license in the window before it (`block_burst` only when the network itself is not
 * already over). Empty means live. Never the license's daily total: that only groups alerts.
 */
export function spamSignals(
  lead: { name: string; email: string },
  recentFromNetwork: number,
  recentFromBlock = 0,
): QuarantineReason[] {
  const reasons: QuarantineReason[] = [];
  if (recentFromNetwork >= NETWORK_BURST) reasons.push('network_burst');
  else if (recentFromBlock >= BLOCK_BURST) reasons.push('block_burst');
  if (hasLink(lead.name)) reasons.push('link_in_name');
  if (isDisposableEmail(lead.email)) reasons.push('disposable_email');
  return reasons;
}
