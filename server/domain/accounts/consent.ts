import { createHash } from 'node:crypto';
import type { Db } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import { findCurrentConsent, insertConsentVersion } from '../../db/repos/consent-versions-repo.ts';
import type { Clock } from '../../lib/clock.ts';
import { type CacheDeps, cachedCurrentConsent } from '../caches/cached-lookups.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';

/**
 * Shown until a firm sets its own text; `{firm}` is replaced by the firm's display name. It names
 * both ways a firm calls back (e-mail and phone). Migration 0009 published it for every firm whose
 * current version was still the earlier default; keep the two texts in step if this one changes.
 */
export const DEFAULT_CONSENT_TEXT =
  'I agree that {firm} may contact me by e-mail or by phone about my enquiry, and may keep the details I entered for that purpose.';

export interface ConsentVersion {
  id: string;
  version: number;
  text: string;
  textSha256: string;
  createdAt: Date;
}

const sha256 = (text: string) => createHash('sha256').update(text, 'utf8').digest('hex');

// The queries live in db/repos/consent-versions-repo.ts; the subject's callers find them here.
export {
  countConsentVersions,
  findCurrentConsent,
  listConsentVersions,
} from '../../db/repos/consent-versions-repo.ts';

/**
 * Records `text` as the firm's new consent version, unless it equals the one in force (then that one
 * is returned). Versions only grow: a lead keeps pointing at the exact words its visitor saw. The
 * version number comes from the unique (account, version) index, so two concurrent writers cannot
 * both take the same number; the loser retries once on top of the winner. A new version
 * invalidates the lookup caches on every instance: the next embed session hands it out.
 */
export async function publishConsentText(
  deps: CacheDeps & { clock: Clock },
  accountId: string,
  text: string,
): Promise<ConsentVersion> {
  const trimmed = text.trim();
  for (let attempt = 0; ; attempt++) {
    const current = await findCurrentConsent(deps.db, accountId);
    if (current && current.text === trimmed) return current;
    let published: ConsentVersion;
    try {
      published = await insertConsentVersion(deps.db, {
        id: newId('cv'),
        accountId,
        version: (current?.version ?? 0) + 1,
        text: trimmed,
        textSha256: sha256(trimmed),
        createdAt: deps.clock.now(),
      });
    } catch (error) {
      if (attempt >= 2) throw error;
      continue;
    }
    await invalidateCaches(deps);
    return published;
  }
}

/**
 * The version in force (from the lookup caches: every embed session asks), writing the default
 * text (with the firm's name) as version 1 if none.
 */
export async function ensureCurrentConsent(
  deps: CacheDeps & { clock: Clock },
  accountId: string,
  firmName: string,
): Promise<ConsentVersion> {
  return (
    (await cachedCurrentConsent(deps, accountId)) ??
    publishConsentText(deps, accountId, DEFAULT_CONSENT_TEXT.replace('{firm}', firmName))
  );
}

/**
 * A firm that never wrote its own consent text is shown the default with its name in it; when it
 * is renamed, the default with the new name is the text to publish (a new version, so earlier leads
 * keep the old words). Undefined when the firm has its own text (or none yet).
 */
export async function renamedDefaultConsent(
  db: Db,
  accountId: string,
  oldName: string,
  newName: string,
): Promise<string | undefined> {
  const current = await findCurrentConsent(db, accountId);
  return current?.text === DEFAULT_CONSENT_TEXT.replace('{firm}', oldName)
    ? DEFAULT_CONSENT_TEXT.replace('{firm}', newName)
    : undefined;
}
