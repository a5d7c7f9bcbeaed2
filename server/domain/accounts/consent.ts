import { createHash } from 'node:crypto';
import type { Db } from '../../db/engine/database.ts';
import { newId } from '../../db/engine/ids.ts';
import {
  findCurrentConsent,
  insertConsentVersion,
  lastConsentVersionNumber,
} from '../../db/repos/consent-versions-repo.ts';
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

/**
 * The default in Spanish, for a Spanish widget of a firm still on the English default: the same
 * two ways of contact and the same purpose, worded as a permission the visitor gives ("Autorizo a
 * … a comunicarse conmigo"), as US firms' Spanish forms word it. Never shown in place of a firm's
 * own English words.
 */
const DEFAULT_CONSENT_TEXT_ES =
  'Autorizo a {firm} a comunicarse conmigo por correo electrónico o por teléfono sobre mi consulta y a conservar los datos que ingresé con ese fin.';

/**
 * Earlier Spanish defaults. A firm whose Spanish version is still one of them (with its name) is
 * on the default: its next Spanish session publishes the current default as a new version (leads
 * keep pointing at the words they were shown), and a rename follows the current default.
 */
const EARLIER_DEFAULTS_ES = [
  'Acepto que {firm} se comunique conmigo por correo electrónico o por teléfono sobre mi consulta y que conserve los datos que ingresé con ese fin.',
];

/** The languages a consent text (and a widget) can be in. */
const CONSENT_LANGUAGES = ['en', 'es'] as const;
export type ConsentLanguage = (typeof CONSENT_LANGUAGES)[number];

const DEFAULTS: Record<ConsentLanguage, string> = { en: DEFAULT_CONSENT_TEXT, es: DEFAULT_CONSENT_TEXT_ES };
const EARLIER: Record<ConsentLanguage, readonly string[]> = { en: [], es: EARLIER_DEFAULTS_ES };

/** A text with the firm's name in place of `{firm}` (a name's `$&` or `$1` kept as written). */
const fillFirm = (text: string, firmName: string): string => text.replace('{firm}', () => firmName);

/** The firm's text is a default of `language`, the current one or an earlier one, with its name. */
const isDefault = (text: string | undefined, language: ConsentLanguage, firmName: string): boolean =>
  [DEFAULTS[language], ...EARLIER[language]].some((t) => fillFirm(t, firmName) === text);

export interface ConsentVersion {
  id: string;
  version: number;
  text: string;
  textSha256: string;
  createdAt: Date;
  language: string;
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
  language: ConsentLanguage = 'en',
): Promise<ConsentVersion> {
  const trimmed = text.trim();
  for (let attempt = 0; ; attempt++) {
    const current = await findCurrentConsent(deps.db, accountId, language);
    if (current && current.text === trimmed) return current;
    let published: ConsentVersion;
    try {
      // One sequence of version numbers across languages: "version 4" names one text.
      published = await insertConsentVersion(deps.db, {
        id: newId('cv'),
        accountId,
        version: (await lastConsentVersionNumber(deps.db, accountId)) + 1,
        text: trimmed,
        textSha256: sha256(trimmed),
        createdAt: deps.clock.now(),
        language,
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
    publishConsentText(deps, accountId, fillFirm(DEFAULT_CONSENT_TEXT, firmName))
  );
}

/**
 * The consent a widget in `language` shows, from the lookup caches. English: the version in force.
 * Spanish: the firm's Spanish version; else, for a firm still on the English default, the Spanish
 * default (written as a version with the firm's name, as the English one is; a firm whose Spanish
 * version is still an earlier default gets the current one as a new version); else the firm's own
 * English text (`language: 'en'`), which the widget shows with a line saying it is in English —
 * never a default in place of the firm's own words.
 */
export async function consentForLanguage(
  deps: CacheDeps & { clock: Clock },
  accountId: string,
  firmName: string,
  language: ConsentLanguage,
): Promise<ConsentVersion> {
  const english = await ensureCurrentConsent(deps, accountId, firmName);
  if (language === 'en') return english;
  const own = await cachedCurrentConsent(deps, accountId, language);
  const state = consentInLanguage(english.text, own?.text, language, firmName);
  if (state === 'own') return own!;
  if (state === 'english') return english;
  // The current default as it is; none yet, or an earlier default, is published (a new version).
  const current = fillFirm(DEFAULTS[language], firmName);
  return own?.text === current ? own : publishConsentText(deps, accountId, current, language);
}

/**
 * What a widget in `language` shows, from the texts in force: `own`, the firm's own words in that
 * language; `english`, the firm's own English words (shown with a line saying they are in English),
 * when it has none in that language, even if a default in that language was published for it while
 * its English was still the default; `default`, the default in that language, for a firm whose
 * English is the default. The portal says the same (Settings → Firm).
 */
export function consentInLanguage(
  englishText: string | undefined,
  ownText: string | undefined,
  language: ConsentLanguage,
  firmName: string,
): 'own' | 'english' | 'default' {
  if (ownText !== undefined && !isDefault(ownText, language, firmName)) return 'own';
  if (englishText !== undefined && !isDefault(englishText, 'en', firmName)) return 'english';
  return 'default';
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
  language: ConsentLanguage = 'en',
): Promise<string | undefined> {
  const current = await findCurrentConsent(db, accountId, language);
  return isDefault(current?.text, language, oldName) ? fillFirm(DEFAULTS[language], newName) : undefined;
}
