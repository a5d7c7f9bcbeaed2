import {
  base64url,
  createLocalJWKSet,
  decodeProtectedHeader,
  exportJWK,
  generateKeyPair,
  jwtVerify,
  SignJWT,
} from 'jose';
import { beforeAll, describe, expect, it } from 'vitest';
import { createFixedClock } from '../../lib/clock.ts';
import { createTokenService, type KeyRing, TOKEN_CLOCK_TOLERANCE_S } from './tokens.ts';

const ISSUER = 'http://127.0.0.1:8787';
const clock = createFixedClock('2026-03-01T12:00:00Z');
let ring: KeyRing;
let publicJwk: Record<string, unknown>;
let otherPrivate: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair('EdDSA', { crv: 'Ed25519', extractable: true });
  otherPrivate = (await generateKeyPair('EdDSA', { crv: 'Ed25519' })).privateKey;
  publicJwk = { ...(await exportJWK(pair.publicKey)), kid: 'k1', alg: 'EdDSA', use: 'sig' };
  ring = {
    signingKey: async () => ({ kid: 'k1', privateKey: pair.privateKey }),
    verificationKey: async (kid) => (kid === 'k1' ? pair.publicKey : undefined),
    jwks: async () => ({ keys: [publicJwk] }),
  };
});

const service = () => createTokenService({ issuer: ISSUER, keys: ring, clock });
const in15min = () => new Date(clock.now().getTime() + 15 * 60_000);

async function expectRejected(token: string, kind: 'access' | 'embed' = 'access') {
  const error = await service()
    .verify(kind, token)
    .then(
      () => null,
      (e: unknown) => e,
    );
  expect(error).toMatchObject({ code: 'UNAUTHORIZED', status: 401 });
  expect((error as { headers: Record<string, string> }).headers['WWW-Authenticate']).toBe(
    'Bearer error="invalid_token"',
  );
}

describe('token service', () => {
  it('issues a token that verifies, with every registered claim', async () => {
    const { token } = await service().issue('access', {
      subject: 'lic_1',
      claims: { scope: 'site' },
      expiresAt: in15min(),
    });
    const payload = await service().verify('access', token);
    expect(payload).toMatchObject({ sub: 'lic_1', iss: ISSUER, aud: 'svc-api', scope: 'site' });
    expect(payload.jti).toBeTruthy();
    expect(payload.nbf).toBe(payload.iat);
  });

  it('issues what an independent JOSE library verifies from the published JWKS', async () => {
    const issued = await service().issue('embed', {
      subject: 'lic_2',
      claims: { dom: 'smithlaw.com', sub: 'ignored', exp: 1 },
      expiresAt: in15min(),
    });
    expect(decodeProtectedHeader(issued.token)).toEqual({ alg: 'EdDSA', typ: 'embed+jwt', kid: 'k1' });
    const { payload } = await jwtVerify(issued.token, createLocalJWKSet({ keys: [publicJwk] as never[] }), {
      algorithms: ['EdDSA'],
      typ: 'embed+jwt',
      issuer: ISSUER,
      audience: 'svc-embed',
      currentDate: clock.now(),
    });
    // The registered claims win over same-named ones in `claims`.
    expect(payload).toEqual({
      dom: 'smithlaw.com',
      iss: ISSUER,
      aud: 'svc-embed',
      sub: 'lic_2',
      jti: issued.jti,
      iat: clock.now().getTime() / 1000,
      nbf: clock.now().getTime() / 1000,
      exp: in15min().getTime() / 1000,
    });
    expect(issued.expiresAt).toEqual(in15min());
  });

  it('re-creates the identical token from the same id and time', async () => {
    const options = { subject: 's', claims: {}, expiresAt: in15min(), jti: 'fixed', issuedAt: clock.now() };
    const a = await service().issue('access', options);
    const b = await service().issue('access', options);
    expect(a.token).toBe(b.token);
  });

  it('refuses a token of another kind', async () => {
    const { token } = await service().issue('embed', { subject: 's', claims: {}, expiresAt: in15min() });
    await expectRejected(token, 'access');
    const access = await service().issue('access', { subject: 's', claims: {}, expiresAt: in15min() });
    await expectRejected(access.token, 'embed');
  });

  it('refuses expired and not-yet-valid tokens', async () => {
    const { token } = await service().issue('access', { subject: 's', claims: {}, expiresAt: in15min() });
    clock.advance(16 * 60_000);
    await expectRejected(token);
    clock.advance(-16 * 60_000);
    const future = await service().issue('access', {
      subject: 's',
      claims: {},
      issuedAt: new Date(clock.now().getTime() + TOKEN_CLOCK_TOLERANCE_S * 1000 + 60_000),
      expiresAt: new Date(clock.now().getTime() + 15 * 60_000),
    });
    await expectRejected(future.token);
  });

  it('allows the stated clock skew (60 s) either way', async () => {
    expect(TOKEN_CLOCK_TOLERANCE_S).toBe(60);
    const aheadBy50s = await service().issue('access', {
      subject: 's',
      claims: {},
      issuedAt: new Date(clock.now().getTime() + 50_000),
      expiresAt: new Date(clock.now().getTime() + 15 * 60_000),
    });
    await expect(service().verify('access', aheadBy50s.token)).resolves.toMatchObject({ sub: 's' });
    const { token } = await service().issue('access', { subject: 's', claims: {}, expiresAt: in15min() });
    clock.advance(15 * 60_000 + 50_000);
    await expect(service().verify('access', token)).resolves.toMatchObject({ sub: 's' });
    clock.advance(-(15 * 60_000 + 50_000));
  });

  it('refuses alg none, HS256 keyed with the public key, unknown kid, wrong issuer and tampering', async () => {
    const now = Math.floor(clock.now().getTime() / 1000);
    const claims = { sub: 's', iss: ISSUER, aud: 'svc-api', jti: 'j', iat: now, nbf: now, exp: now + 600 };
    const encode = (value: object) => base64url.encode(JSON.stringify(value));
    await expectRejected(`${encode({ alg: 'none', typ: 'at+jwt', kid: 'k1' })}.${encode(claims)}.`);

    const hmacKey = new TextEncoder().encode(JSON.stringify(publicJwk));
    const hs = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'HS256', typ: 'at+jwt', kid: 'k1' })
      .sign(hmacKey);
    await expectRejected(hs);

    const unknownKid = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: 'k9' })
      .sign(otherPrivate);
    await expectRejected(unknownKid);
    const wrongKey = await new SignJWT(claims)
      .setProtectedHeader({ alg: 'EdDSA', typ: 'at+jwt', kid: 'k1' })
      .sign(otherPrivate);
    await expectRejected(wrongKey);

    const wrongIssuer = await service().issue('access', { subject: 's', claims: {}, expiresAt: in15min() });
    await expect(
      createTokenService({ issuer: 'https://evil.example', keys: ring, clock }).verify(
        'access',
        wrongIssuer.token,
      ),
    ).rejects.toMatchObject({ code: 'UNAUTHORIZED' });

    const { token } = await service().issue('access', {
      subject: 'lic_1',
      claims: { scope: 'site' },
      expiresAt: in15min(),
    });
    const [header, , signature] = token.split('.');
    await expectRejected(`${header}.${encode({ ...claims, scope: 'site admin' })}.${signature}`);
    await expectRejected('not-a-jwt');
    await expectRejected('');
  });
});
