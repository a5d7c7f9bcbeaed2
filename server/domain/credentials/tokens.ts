import { KeyObject, sign } from 'node:crypto';
import { type CryptoKey, errors, type JWK, type JWTPayload, jwtVerify } from 'jose';
import type { Clock } from '../../lib/clock.ts';
import { AppError } from '../../lib/errors.ts';
import type { LookupCaches } from '../caches/lookup-caches.ts';

/**
 * JWTs: EdDSA (Ed25519) only. Each kind has its own `typ` and `aud`, so a token of one kind is
 * refused on every endpoint but its own.
 */
export const TOKEN_KINDS = {
  access: { typ: 'at+jwt', aud: 'svc-api' },
  embed: { typ: 'embed+jwt', aud: 'svc-embed' },
  billing: { typ: 'billing+jwt', aud: 'svc-billing' },
  /** MCP access tokens (DESIGN §8): `aud` is the MCP resource URL the client asked for (RFC 8707). */
  mcp: { typ: 'mcp+jwt', aud: undefined },
} as const;

type TokenKind = keyof typeof TOKEN_KINDS;

export interface SigningKey {
  kid: string;
  privateKey: CryptoKey;
}

/** Where keys come from: the database-backed ring in production, an in-memory one in tests. */
export interface KeyRing {
  signingKey(): Promise<SigningKey>;
  verificationKey(kid: string): Promise<CryptoKey | undefined>;
  jwks(): Promise<{ keys: JWK[] }>;
}

interface IssueOptions {
  subject: string;
  claims: Record<string, unknown>;
  expiresAt: Date;
  /** Fixed id and issue time re-create an identical token (Ed25519 signatures are deterministic). */
  jti?: string;
  issuedAt?: Date;
  /** The audience of a kind without a fixed one (`mcp`: the resource URL). */
  audience?: string;
}

interface IssuedToken {
  token: string;
  jti: string;
  expiresAt: Date;
}

export interface TokenService {
  issue(kind: TokenKind, options: IssueOptions): Promise<IssuedToken>;
  /** `audiences`: what a kind without a fixed audience accepts (`mcp`: the MCP resource URLs). */
  verify(
    kind: TokenKind,
    token: string,
    audiences?: readonly string[],
  ): Promise<JWTPayload & Record<string, unknown>>;
}

export const invalidToken = (message = 'The access token is invalid or expired.') =>
  new AppError('UNAUTHORIZED', message, { headers: { 'WWW-Authenticate': 'Bearer error="invalid_token"' } });

type Claims = JWTPayload & Record<string, unknown>;

const keyObjects = new WeakMap<CryptoKey, KeyObject>();
const base64url = (json: unknown) => Buffer.from(JSON.stringify(json)).toString('base64url');

/**
 * A compact JWS with EdDSA (Ed25519), signed with node:crypto in one synchronous call: WebCrypto's
 * `subtle.sign` (what jose uses) costs several times the signature itself in promise and job
 * overhead, and every embed session signs a token. Verification stays with jose.
 */
function signCompact(header: Record<string, unknown>, payload: Claims, key: CryptoKey): string {
  let keyObject = keyObjects.get(key);
  if (!keyObject) {
    keyObject = KeyObject.from(key);
    keyObjects.set(key, keyObject);
  }
  const input = `${base64url(header)}.${base64url(payload)}`;
  return `${input}.${sign(null, Buffer.from(input), keyObject).toString('base64url')}`;
}

/**
 * The clock skew a token's `nbf` and `exp` are checked with. Instances sharing PostgreSQL stamp
 * tokens on the database's clock (db/engine/aligned-clock.ts), so this covers what is left: the measured
 * offset's error, a database failover to a server whose clock differs, a clock that jumps.
 */
export const TOKEN_CLOCK_TOLERANCE_S = 60;

const seconds = (date: Date) => Math.floor(date.getTime() / 1000);

/**
 * With `caches`, a verified token's claims are kept (by kind and token) until the token expires:
 * an Ed25519 verification costs more than the rest of a cached request. Only the signature and
 * the claims are cached; revocation is checked by the caller on every request.
 */
export function createTokenService(deps: {
  issuer: string;
  keys: KeyRing;
  clock: Clock;
  caches?: LookupCaches | undefined;
}): TokenService {
  const audienceOf = (kind: TokenKind, audiences?: readonly string[]): string | string[] => {
    const fixed = TOKEN_KINDS[kind].aud;
    if (fixed) return fixed;
    if (!audiences?.length) throw new Error(`tokens of kind ${kind} are verified against given audiences`);
    return [...audiences];
  };
  async function verifyNow(kind: TokenKind, token: string, audiences?: readonly string[]): Promise<Claims> {
    try {
      const { payload } = await jwtVerify(
        token,
        async (header) => {
          const key = header.kid ? await deps.keys.verificationKey(header.kid) : undefined;
          if (!key) throw invalidToken();
          return key;
        },
        {
          algorithms: ['EdDSA'],
          typ: TOKEN_KINDS[kind].typ,
          issuer: deps.issuer,
          audience: audienceOf(kind, audiences),
          requiredClaims: ['sub', 'jti', 'exp', 'nbf', 'iat'],
          currentDate: deps.clock.now(),
          clockTolerance: TOKEN_CLOCK_TOLERANCE_S,
        },
      );
      return payload as Claims;
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof errors.JOSEError || error instanceof TypeError) throw invalidToken();
      throw error;
    }
  }
  return {
    async issue(kind, options) {
      const { kid, privateKey } = await deps.keys.signingKey();
      const issuedAt = options.issuedAt ?? deps.clock.now();
      const jti = options.jti ?? crypto.randomUUID();
      const aud = TOKEN_KINDS[kind].aud ?? options.audience;
      if (!aud) throw new Error(`tokens of kind ${kind} need an audience`);
      const token = signCompact(
        { alg: 'EdDSA', typ: TOKEN_KINDS[kind].typ, kid },
        {
          ...options.claims,
          iss: deps.issuer,
          aud,
          sub: options.subject,
          jti,
          iat: seconds(issuedAt),
          nbf: seconds(issuedAt),
          exp: seconds(options.expiresAt),
        },
        privateKey,
      );
      return { token, jti, expiresAt: new Date(Math.floor(options.expiresAt.getTime() / 1000) * 1000) };
    },

    async verify(kind, token, audiences) {
      if (!deps.caches) return verifyNow(kind, token, audiences);
      const claims = await deps.caches.lookup(
        'token',
        `${kind} ${audiences?.join(' ') ?? ''} ${token}`,
        () => verifyNow(kind, token, audiences),
        // Until `exp` (verification would still pass for the clock tolerance; then it runs again).
        (c) => Number(c.exp) * 1000,
      );
      return claims!;
    },
  };
}
