import type { ApiKeyScope } from './scopes.ts';

/** Who is calling, once a credential has been verified. Every firm-data query is scoped by `accountId`. */
export type Principal =
  | {
      kind: 'access';
      accountId: string;
      licenseId: string;
      activationId: string;
      familyId: string;
      domain: string;
      admin: boolean;
      jti: string;
    }
  | { kind: 'embed'; accountId: string; licenseId: string; domain: string; origin: string; jti: string }
  | { kind: 'apikey'; accountId: string; apiKeyId: string; admin: true; scopes: ApiKeyScope[] };

export type CredentialKind = Principal['kind'];

/** Admin credentials: an access token from the Connect flow, or a personal API key. */
export const isAdmin = (p: Principal) => (p.kind === 'access' && p.admin) || p.kind === 'apikey';

/** The rate-limit key of a principal (README "Rate limits"). */
export function rateKeyOf(p: Principal): string {
  if (p.kind === 'access') return `license:${p.licenseId}`;
  if (p.kind === 'embed') return `embed:${p.jti}`;
  return `apikey:${p.apiKeyId}`;
}
