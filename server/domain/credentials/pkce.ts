import { createHash } from 'node:crypto';
import { safeEqual } from '../../lib/constant-time.ts';

/** RFC 7636 §4.1: 43–128 unreserved characters. */
const PKCE_VERIFIER = /^[A-Za-z0-9\-._~]{43,128}$/;
/** An S256 challenge: the base64url SHA-256 of a verifier, 43 characters. */
export const PKCE_CHALLENGE = /^[A-Za-z0-9_-]{43}$/;

export function pkceChallenge(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

/** Whether `verifier` is well formed and hashes to `challenge` (S256; `plain` is never accepted). */
export const pkceMatches = (verifier: string, challenge: string) =>
  PKCE_VERIFIER.test(verifier) && safeEqual(pkceChallenge(verifier), challenge);
