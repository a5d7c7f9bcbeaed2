import { calculators, isCalculatorSlug } from '../../calculators/index.ts';
import { findAccountById } from '../db/accounts-repo.ts';
import { AppError } from '../errors.ts';
import { canonicalHost } from './domains.ts';
import { findUsableLicenseByKey } from './license-lookup.ts';
import { assertDomainAllowed } from './site-activation.ts';
import type { LicensingDeps } from './token-set.ts';

export const EMBED_TOKEN_TTL_MS = 10 * 60_000;

export interface EmbedSession {
  token: string;
  expiresAt: string;
  embedUrl: string;
  calculators: string[];
  /** The firm's name and accent from its settings, so the widget, consent text and PDF agree. */
  firm: { name: string; accent?: string };
}

/**
 * `POST /license/activate`: the loader, running on the firm's page, trades the public license key
 * for a short-lived embed token bound to the license, the account and the page's origin host.
 * The host is the request's `Origin` (set by the browser, not by the page's script). Embed
 * sessions take no seat: the allowed-domains list is what limits where a widget runs.
 */
export async function createEmbedSession(
  deps: LicensingDeps & { embedUrl: string },
  input: { licenseKey: string; origin: string | undefined; calculator?: string },
): Promise<EmbedSession> {
  const { license, state } = await findUsableLicenseByKey(deps, input.licenseKey);
  const origin =
    input.origin && input.origin !== 'null' && URL.canParse(input.origin)
      ? new URL(input.origin).origin
      : undefined;
  const host = origin ? canonicalHost(origin) : null;
  if (!origin || !host) {
    throw new AppError(
      'DOMAIN_NOT_ALLOWED',
      'Embed sessions are requested by the page that shows the widget (Origin header).',
    );
  }
  assertDomainAllowed(license, host);
  if (input.calculator !== undefined && !isCalculatorSlug(input.calculator)) {
    throw new AppError('INVALID_REQUEST', `Unknown calculator "${input.calculator}".`, {
      details: [{ path: 'calculator', message: `One of: ${calculators.map((c) => c.slug).join(', ')}` }],
    });
  }
  const now = deps.clock.now().getTime();
  const end = Math.min(now + EMBED_TOKEN_TTL_MS, state.usableUntil!.getTime());
  const { token, expiresAt } = await deps.tokens.issue('embed', {
    subject: license.id,
    claims: { acc: license.accountId, dom: host, org: origin },
    expiresAt: new Date(end),
  });
  const account = await findAccountById(deps.db, license.accountId);
  return {
    token,
    expiresAt: expiresAt.toISOString(),
    embedUrl: deps.embedUrl,
    calculators: input.calculator ? [input.calculator] : calculators.map((c) => c.slug),
    firm: {
      name: account?.name ?? '',
      ...(account?.accentColor && /^#[0-9a-f]{6}$/i.test(account.accentColor)
        ? { accent: account.accentColor }
        : {}),
    },
  };
}
