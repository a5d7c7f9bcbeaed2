import { isIP } from 'node:net';
import { isBlockedAddress } from './ssrf-guard.ts';

/**
 * What the firm reads when a webhook URL names a private or local host, at registration and when a
 * delivery finds one: it names the setting that allows such a host, so a developer testing with a
 * local receiver knows what to do instead of watching retries fail for a day.
 */
export const PRIVATE_HOST_REFUSAL =
  'refused: webhooks go only to public addresses that resolve, and this host is private, local or has no public address (localhost, a development name such as .test or .local, a private, loopback or link-local IP). Use a public https:// URL, or ask the operator to allow the host with WEBHOOK_ALLOW_PRIVATE_HOSTS.';

/** Names that only ever mean a machine on the firm's own network or the developer's own. */
const LOCAL_SUFFIXES = [
  '.localhost',
  '.test',
  '.local',
  '.internal',
  '.lan',
  '.home.arpa',
  '.localdomain',
  '.invalid',
];

/**
 * True for a host that is private by its spelling alone: an IP literal in a private, loopback,
 * link-local or reserved range, `localhost` and its subdomains, the development and local-network
 * suffixes, and a single label ("intranet"). Nothing is resolved: a lookup here would tell the
 * firm which internal names exist (the connection-time guard catches names that resolve inward).
 */
export function isPrivateHostName(host: string): boolean {
  const bare = host
    .toLowerCase()
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '');
  if (isIP(bare.split('%')[0]!)) return isBlockedAddress(bare);
  if (bare === 'localhost' || !bare.includes('.')) return true;
  return LOCAL_SUFFIXES.some((suffix) => bare.endsWith(suffix));
}
