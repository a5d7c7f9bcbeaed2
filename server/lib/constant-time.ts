import { timingSafeEqual } from 'node:crypto';

/**
 * Compares two secrets (tokens, PKCE challenges, bearer strings) in time that does not depend on
 * where they first differ. A length difference returns early: lengths of our secrets are public.
 */
export function safeEqual(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}
