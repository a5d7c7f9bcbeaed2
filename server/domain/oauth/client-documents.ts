import { getDocument } from '../delivery/http-sender.ts';
import { hostOf } from '../delivery/ssrf-guard.ts';
import type { OAuthDeps } from './mcp-resource.ts';
import { oauthError } from './oauth-error.ts';
import { isUsableRedirectUri } from './redirect-uris.ts';

/** What the server keeps of a Client ID Metadata Document. */
export interface ClientDocument {
  clientName: string | null;
  redirectUris: string[];
}

/** Bounds of the cache: entries, and how long one lives whatever the headers say. */
const MAX_ENTRIES = 500;
const MIN_TTL_MS = 60_000;
const MAX_TTL_MS = 24 * 3_600_000;
const DEFAULT_TTL_MS = 5 * 60_000;

interface Entry {
  doc: ClientDocument;
  until: number;
}

/** Per process, capped: the oldest entry goes first (a Map keeps insertion order). */
const cache = new Map<string, Entry>();

/**
 * The instance's fetch budget, whatever the hosts (each host also has its own, `deps.allow`): a
 * host is a host and port, so a per-host budget alone gives every new name a fresh one, and a
 * fetch may hold a socket for the whole timeout.
 */
const MAX_FETCHES_AT_ONCE = 4;
const MAX_FETCHES_PER_MINUTE = 60;
let fetchesInFlight = 0;
const fetchTimes: number[] = [];

function takeFetchBudget(now: number): boolean {
  while (fetchTimes.length > 0 && fetchTimes[0]! <= now - 60_000) fetchTimes.shift();
  if (fetchesInFlight >= MAX_FETCHES_AT_ONCE || fetchTimes.length >= MAX_FETCHES_PER_MINUTE) return false;
  fetchTimes.push(now);
  fetchesInFlight++;
  return true;
}

/** Test helper: forget every cached document and the instance's spent fetch budget. */
export const clearClientDocumentCache = () => {
  cache.clear();
  fetchTimes.length = 0;
};

/** The cached document of `clientId` while fresh; never fetches. */
export function cachedClientDocument(deps: OAuthDeps, clientId: string): ClientDocument | undefined {
  const hit = cache.get(clientId);
  return hit && hit.until > deps.clock.now().getTime() ? hit.doc : undefined;
}

/**
 * How long a document may be reused: `Cache-Control: max-age` (or `Expires`), clamped between a
 * minute and a day; `no-store`/`no-cache` still keep it a minute so a burst of sign-ins fetches once.
 */
function cacheLifetimeMs(headers: Record<string, string | string[] | undefined>, now: number): number {
  const control = String(headers['cache-control'] ?? '').toLowerCase();
  const maxAge = /(?:^|[,\s])max-age=(\d+)/.exec(control)?.[1];
  let ttl = DEFAULT_TTL_MS;
  if (/no-store|no-cache/.test(control)) ttl = 0;
  else if (maxAge !== undefined) ttl = Number(maxAge) * 1000;
  else if (typeof headers.expires === 'string' && !Number.isNaN(Date.parse(headers.expires)))
    ttl = Date.parse(headers.expires) - now;
  return Math.min(MAX_TTL_MS, Math.max(MIN_TTL_MS, ttl));
}

/**
 * A client_id URL must be HTTPS with a path, no fragment, credentials or dot segments
 * (draft-ietf-oauth-client-id-metadata-document §3), encoded or not, written exactly as the URL
 * parser normalises it. Plain HTTP only for a host the operator lets
 * the server reach on a private network (WEBHOOK_ALLOW_PRIVATE_HOSTS: tests' loopback stubs).
 */
export function checkClientIdUrl(deps: OAuthDeps, clientId: string): URL {
  const bad = (why: string) => oauthError('invalid_client', `The client_id URL ${why}.`);
  if (!URL.canParse(clientId)) throw bad('is not a URL');
  const url = new URL(clientId);
  const privateAllowed = deps.fetchRules.allowPrivateHosts.includes(hostOf(url));
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && privateAllowed)) throw bad('must use HTTPS');
  if (url.hash || clientId.includes('#') || url.username || url.password)
    throw bad('must not carry a fragment or credentials');
  if (url.pathname === '/' || /\/\.\.?(\/|$)/.test(clientId.slice(url.origin.length)))
    throw bad('must have a path without dot segments');
  // The consent page shows the text, the fetch goes to the parsed URL: they must be the same
  // address, or `/victim/%2e%2e/attacker/…` (or `\`, `127.000.000.001`) poses under another path or host.
  if (url.href !== clientId) throw bad('must be written in its normalised form');
  return url;
}

/**
 * The metadata document at a client_id URL: from the cache while fresh, otherwise fetched through
 * the webhooks' SSRF guard (public addresses only, checked at connect time; no redirects; 4 KB and
 * the configured timeout at most), at most a few times a minute per host and within the
 * instance's budget (4 at once, 60 a minute). Called only for the authorization page, where a
 * signed-in person asked for it; the token endpoint never fetches (`clients.ts`). The document must name
 * itself (`client_id` equal to the URL) and list at least one usable redirect URI.
 */
export async function fetchClientDocument(deps: OAuthDeps, clientId: string): Promise<ClientDocument> {
  const now = deps.clock.now().getTime();
  const hit = cache.get(clientId);
  if (hit && hit.until > now) return hit.doc;
  const url = checkClientIdUrl(deps, clientId);
  if (!(await deps.allow('document', url.host)))
    throw oauthError(
      'invalid_client',
      'Too many metadata document fetches for this client; try again shortly.',
    );
  if (!takeFetchBudget(now))
    throw oauthError('invalid_client', 'Too many metadata document fetches right now; try again shortly.');
  let outcome: Awaited<ReturnType<typeof getDocument>>;
  try {
    outcome = await getDocument(
      url.toString(),
      { accept: 'application/json', 'user-agent': 'svc-oauth/1' },
      { ...deps.fetchRules, logger: deps.logger },
    );
  } finally {
    fetchesInFlight--;
  }
  const refuse = (why: string) => oauthError('invalid_client', `The client metadata document ${why}.`);
  if (outcome.statusCode !== 200)
    throw refuse(outcome.error ? 'could not be fetched' : `answered ${outcome.statusCode}`);
  if (outcome.truncated) throw refuse('is larger than 4 KB');
  let json: Record<string, unknown>;
  try {
    json = JSON.parse(outcome.excerpt) as Record<string, unknown>;
  } catch {
    throw refuse('is not JSON');
  }
  if (!json || typeof json !== 'object' || json.client_id !== clientId)
    throw refuse('does not name itself as client_id');
  const method = json.token_endpoint_auth_method ?? 'none';
  if (method !== 'none')
    throw refuse('asks for a client authentication this server does not offer such clients');
  const redirectUris = Array.isArray(json.redirect_uris)
    ? json.redirect_uris.filter((u): u is string => typeof u === 'string').filter(isUsableRedirectUri)
    : [];
  if (!redirectUris.length) throw refuse('lists no usable redirect_uris');
  const name = typeof json.client_name === 'string' ? json.client_name.trim().slice(0, 200) || null : null;
  const doc: ClientDocument = { clientName: name, redirectUris };
  cache.delete(clientId);
  if (cache.size >= MAX_ENTRIES) cache.delete(cache.keys().next().value!);
  cache.set(clientId, { doc, until: now + cacheLifetimeMs(outcome.responseHeaders ?? {}, now) });
  return doc;
}
