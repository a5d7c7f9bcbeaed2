import { pageOfText } from '../../../protocol/page.ts';
import type { Principal } from '../credentials/principal.ts';
import { canonicalHost } from '../licensing/domains.ts';

/**
 * The page a widget reported, kept only when it is on the caller's own site: an embed session's
 * exact origin (scheme, host and port of the page that opened it), or a site activation's domain.
 * `verified` is true when a page was reported and kept, false when one was reported and dropped
 * (consent evidence must not name another firm's page), null when none was reported.
 */
export function pageOnOrigin(
  principal: Extract<Principal, { kind: 'embed' | 'access' }>,
  reported: string | undefined,
): { page: string | null; verified: boolean | null } {
  if (!reported) return { page: null, verified: null };
  const page = pageOfText(reported);
  if (!page) return { page: null, verified: false };
  const origin = new URL(page).origin;
  const own =
    principal.kind === 'embed' ? origin === principal.origin : canonicalHost(origin) === principal.domain;
  return own ? { page, verified: true } : { page: null, verified: false };
}
