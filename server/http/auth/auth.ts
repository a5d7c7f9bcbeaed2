import type { Context, MiddlewareHandler } from 'hono';
import { authenticate } from '../../domain/access/authenticate.ts';
import { type CredentialKind, type Principal, rateKeyOf } from '../../domain/credentials/principal.ts';
import { invalidToken } from '../../domain/credentials/tokens.ts';
import type { LicensingDeps } from '../../domain/deps.ts';
import type { AppEnv } from '../app-env.ts';
import type { CredentialKeyResolver } from '../rate-limit/rate-limit.ts';
import { ipRateKey } from '../requests/client-ip.ts';
import { handedOn } from '../requests/handed-on.ts';

export const ALL_KINDS: readonly CredentialKind[] = ['access', 'embed', 'apikey', 'mcp'];

export function bearerOf(c: Context): string | undefined {
  const header = c.req.header('authorization');
  const match = header ? /^Bearer\s+(\S+)\s*$/i.exec(header) : null;
  return match?.[1];
}

interface Verified {
  result: Principal | Error;
  /** The lookup caches' generation it was read at. */
  generation: number;
}

/**
 * Verifies the bearer credential once per request and remembers the result, so the rate limiter
 * (which runs first) and the route share one verification. The rate limiter's verification runs
 * before its Redis round trip has read the caches' epoch; when that round trip dropped the caches
 * (a revocation on another instance), the route verifies again from the database.
 */
async function principalOf(deps: LicensingDeps, c: Context<AppEnv>): Promise<Principal | Error> {
  const generation = deps.caches?.generation() ?? 0;
  // A lane that gave this request to Hono hands on the verification it made (`handed-on.ts`).
  const cached = (c.get('credential') ?? handedOn(c)?.credential) as Verified | undefined;
  if (cached && cached.generation === generation) return cached.result;
  const bearer = bearerOf(c);
  const result = bearer
    ? await authenticate(deps, bearer, ALL_KINDS).catch((error: unknown) =>
        error instanceof Error ? error : new Error(String(error)),
      )
    : invalidToken('A bearer credential is required.');
  c.set('credential', { result, generation } satisfies Verified);
  return result;
}

/** Rate-limit key of a request's verified credential; undefined falls back to the client IP. */
export function credentialRateKey(deps: LicensingDeps): CredentialKeyResolver {
  return async (c) => {
    if (!bearerOf(c)) return undefined;
    const principal = await principalOf(deps, c);
    if (principal instanceof Error) return undefined;
    const key = rateKeyOf(principal, ipRateKey(c.get('clientIp') ?? 'unknown'));
    return principal.kind === 'embed'
      ? { key, embed: { licenseId: principal.licenseId, plan: principal.plan } }
      : { key };
  };
}

/** The request's verified principal of one of `accept` kinds, or the error to answer. */
export async function verifiedPrincipal(
  deps: LicensingDeps,
  c: Context<AppEnv>,
  accept: readonly CredentialKind[],
): Promise<Principal> {
  const principal = await principalOf(deps, c);
  if (principal instanceof Error) throw principal;
  if (!accept.includes(principal.kind))
    throw invalidToken('This endpoint does not accept this kind of credential.');
  return principal;
}

/** Requires a credential of one of `accept` kinds; the principal is then `c.get('principal')`. */
export function requireCredential(
  deps: LicensingDeps,
  accept: readonly CredentialKind[],
): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('principal', await verifiedPrincipal(deps, c, accept));
    await next();
  };
}
