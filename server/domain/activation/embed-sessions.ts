import { calculators, isCalculatorSlug } from '../../../calculators/index.ts';
import { newId } from '../../db/engine/ids.ts';
import { hasAuditSince, recordAudit } from '../../db/repos/audit-repo.ts';
import type { LicenseRow } from '../../db/repos/licenses-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { type ConsentVersion, consentForLanguage } from '../accounts/consent.ts';
import { cachedAccount, peekLicenseByPublishableKey } from '../caches/cached-lookups.ts';
import { licenseKeyKindOf } from '../credentials/formats.ts';
import type { LicensingDeps } from '../deps.ts';
import { canonicalHost, isDevHost } from '../licensing/domains.ts';
import {
  findUsableLicenseByPublishableKey,
  findUsableLicenseBySecretKey,
  invalidLicense,
  wrongKeyKind,
} from '../licensing/lookup.ts';
import type { LicenseState } from '../licensing/status.ts';
import { assertDomainAllowed } from './site-activation.ts';

/** How long an embed token lives (a renewal keeps its session id, `sid`). */
export const EMBED_TOKEN_TTL_MS = 10 * 60_000;

interface EmbedWarning {
  code: 'SECRET_KEY_IN_PAGE';
  message: string;
}

export interface EmbedSession {
  token: string;
  expiresAt: string;
  embedUrl: string;
  calculators: string[];
  /** Test mode: a development host (or the portal's preview); its data stays out of the firm's pipeline. */
  test: boolean;
  warnings?: EmbedWarning[];
  /**
   * The firm's name, accent, and phone and e-mail from its settings, so the widget (its thank-you
   * state), consent text and PDF agree.
   */
  firm: { name: string; accent?: string; phone?: string; email?: string };
  /**
   * The firm's consent version in force: the widget shows `text` verbatim beside the consent box
   * and names `versionId` with the lead, so the lead keeps the words its visitor read.
   */
  consent: SessionConsent & {
    /**
     * The version a widget in another language shows (`es`): one session serves a page's widgets
     * in every language. A firm with its own English text and no Spanish one gets its English
     * version here (`language: 'en'`), never a default in place of its words.
     */
    byLanguage: { es: SessionConsent };
  };
}

/** A consent version as a widget shows it. */
interface SessionConsent {
  versionId: string;
  text: string;
  sha256: string;
  /** The language `text` is in. */
  language: string;
}

const sessionConsent = (c: ConsentVersion): SessionConsent => ({
  versionId: c.id,
  text: c.text,
  sha256: c.textSha256,
  language: c.language,
});

export interface EmbedSessionInput {
  licenseKey: string;
  origin: string | undefined;
  calculator?: string;
  /** The current embed token when the loader renews: the new token keeps its session id (`sid`). */
  currentToken?: string;
}

export interface EmbedSessionDeps extends LicensingDeps {
  embedUrl: string;
  /** Origins whose sessions are test mode besides development hosts (the portal's live preview). */
  testOrigins?: readonly string[];
}

const SECRET_IN_PAGE: EmbedWarning = {
  code: 'SECRET_KEY_IN_PAGE',
  message:
    'This page uses the secret license key as data-key. Replace it with the publishable key (svc_pk_…) and roll the secret key; after that roll the secret key opens no embed sessions.',
};

/**
 * `POST /license/activate`: the loader, running on the firm's page, trades the publishable key for
 * a short-lived embed token bound to the license, the account, the page's origin (`org`, which the
 * widget checks in its handshake) and an embed session id (`sid`, which a renewal keeps and which
 * is the capability for that session's PDFs). The host is the request's `Origin` (set by the
 * browser; a script can forge it, which is why embed tokens can do only public things). Embed
 * sessions take no seat. Development hosts get test-mode sessions (`test` claim). The secret key
 * is refused here, except for licenses made before publishable keys existed, whose pasted widgets
 * keep working with a deprecation warning (and an audit entry, at most daily) until the secret key
 * is rolled.
 */
export async function createEmbedSession(
  deps: EmbedSessionDeps,
  input: EmbedSessionInput,
): Promise<EmbedSession & { license: { id: string; accountId: string; plan: string }; sid: string }> {
  const { license, state, legacy } = await licenseForEmbed(deps, input.licenseKey);
  const { origin, host } = pageOrigin(input.origin);
  assertDomainAllowed(license, host);
  if (input.calculator !== undefined && !isCalculatorSlug(input.calculator)) {
    throw new AppError('INVALID_REQUEST', `Unknown calculator "${input.calculator}".`, {
      details: [{ path: 'calculator', message: `One of: ${calculators.map((c) => c.slug).join(', ')}` }],
    });
  }
  const test = isDevHost(host) || (deps.testOrigins ?? []).includes(origin);
  const sid = (await inheritedSid(deps, input.currentToken, license.id, origin)) ?? newId('sid');
  const now = deps.clock.now().getTime();
  const end = Math.min(now + EMBED_TOKEN_TTL_MS, state.usableUntil!.getTime());
  const { token, expiresAt } = await deps.tokens.issue('embed', {
    subject: license.id,
    claims: { acc: license.accountId, dom: host, org: origin, sid, ...(test ? { test: true } : {}) },
    expiresAt: new Date(end),
  });
  if (legacy) await auditSecretInPage(deps, license, origin);
  const account = await cachedAccount(deps, license.accountId);
  const firmName = account?.name ?? 'this firm';
  // English first: a new firm's default English version is written before the Spanish one is chosen.
  const consent = await consentForLanguage(deps, license.accountId, firmName, 'en');
  const spanish = await consentForLanguage(deps, license.accountId, firmName, 'es');
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    embedUrl: deps.embedUrl,
    calculators: input.calculator ? [input.calculator] : calculators.map((c) => c.slug),
    test,
    ...(legacy ? { warnings: [SECRET_IN_PAGE] } : {}),
    license: { id: license.id, accountId: license.accountId, plan: license.plan },
    sid,
    firm: {
      name: account?.name ?? '',
      ...(account?.accentColor && /^#[0-9a-f]{6}$/i.test(account.accentColor)
        ? { accent: account.accentColor }
        : {}),
      ...(account?.contact?.phone ? { phone: account.contact.phone } : {}),
      ...(account?.contact?.email ? { email: account.contact.email } : {}),
    },
    consent: { ...sessionConsent(consent), byLanguage: { es: sessionConsent(spanish) } },
  };
}

/**
 * The license a warm embed session for `licenseKey` from `origin` will be of, from the caches
 * alone (no I/O): a cached publishable key's license whose domains cover the page. It names only
 * the counter the session counts toward (its plan ceiling), in the rate limit's round trip; the
 * session itself is decided by `createEmbedSession` after that round trip has read the caches'
 * epoch. Undefined when not cached (the session then counts in a round trip of its own).
 */
export function cachedEmbedLicense(
  deps: LicensingDeps,
  licenseKey: string,
  origin: string | undefined,
): { id: string; accountId: string; plan: string } | undefined {
  if (licenseKeyKindOf(licenseKey) !== 'publishable') return undefined;
  const license = peekLicenseByPublishableKey(deps, licenseKey)?.license;
  if (!license) return undefined;
  try {
    assertDomainAllowed(license, pageOrigin(origin).host);
  } catch {
    return undefined;
  }
  return license;
}

async function licenseForEmbed(
  deps: LicensingDeps,
  key: string,
): Promise<{ license: LicenseRow; state: LicenseState; legacy: boolean }> {
  const kind = licenseKeyKindOf(key);
  if (kind === 'publishable')
    return { ...(await findUsableLicenseByPublishableKey(deps, key)), legacy: false };
  if (kind !== 'secret') throw invalidLicense();
  // Unknown secret keys and those of new licenses get the same answer: no oracle for valid keys.
  const found = await findUsableLicenseBySecretKey(deps, key).catch(() => undefined);
  if (!found?.license.legacySecretEmbed) throw wrongKeyKind('secret');
  return { ...found, legacy: true };
}

/**
 * Origin headers as `pageOrigin` read them (null: not a page's origin), by header: the same pages
 * ask again and again, and reading one takes two URL parses. Only short headers are kept, and the
 * map is emptied when it passes its bound, so a caller inventing origins only costs itself the parse.
 */
const readOrigins = new Map<string, { origin: string; host: string } | null>();
const READ_ORIGINS_MAX = 10_000;

function readOrigin(header: string): { origin: string; host: string } | null {
  const origin = header !== 'null' && URL.canParse(header) ? new URL(header).origin : undefined;
  const host = origin && origin !== 'null' ? canonicalHost(origin) : null;
  return origin && host ? { origin, host } : null;
}

function pageOrigin(header: string | undefined): { origin: string; host: string } {
  let read: { origin: string; host: string } | null | undefined;
  if (header && header.length <= 256) {
    read = readOrigins.get(header);
    if (read === undefined) {
      read = readOrigin(header);
      if (readOrigins.size >= READ_ORIGINS_MAX) readOrigins.clear();
      readOrigins.set(header, read);
    }
  } else if (header) read = readOrigin(header);
  if (!read) {
    throw new AppError(
      'DOMAIN_NOT_ALLOWED',
      'Embed sessions are requested by the page that shows the widget (Origin header).',
    );
  }
  return read;
}

/** A renewal keeps the session id of a still valid token of the same license and page origin. */
async function inheritedSid(
  deps: LicensingDeps,
  token: string | undefined,
  licenseId: string,
  origin: string,
): Promise<string | undefined> {
  if (!token) return undefined;
  const claims = await deps.tokens.verify('embed', token).catch(() => undefined);
  if (!claims || claims.sub !== licenseId || claims.org !== origin) return undefined;
  return typeof claims.sid === 'string' ? claims.sid : undefined;
}

async function auditSecretInPage(deps: LicensingDeps, license: LicenseRow, origin: string): Promise<void> {
  const now = deps.clock.now();
  if (
    await hasAuditSince(deps.db, 'embed.secret_key_in_page', license.id, new Date(now.getTime() - 86_400_000))
  )
    return;
  await recordAudit(deps.db, {
    accountId: license.accountId,
    actor: 'embed',
    action: 'embed.secret_key_in_page',
    subject: license.id,
    data: { origin },
    at: now,
  });
}
