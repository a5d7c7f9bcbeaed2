import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test-support/services.ts';
import {
  createSigningKeyRing,
  MAX_TOKEN_LIFETIME_MS,
  rotateSigningKeys,
  UNKNOWN_KID_RELOAD_MS,
} from './signing-key-ring.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

const jwks = async () =>
  (await (await t.get('/.well-known/jwks.json')).json()) as { keys: { kid: string }[] };

describe('signing key rotation', () => {
  it('publishes the next key before it signs, and keeps the old one until its tokens expire', async () => {
    const keyDeps = { db: t.database.db, secretKey: t.services.secretKey, clock: t.clock };
    const firm = await t.seed.firm();
    const activate = async () =>
      (
        await (
          await t.json('/v1/api/licenses/activate', {
            licenseKey: firm.licenseKey,
            siteDomain: 'smithlaw.com',
          })
        ).json()
      ).accessJwt as string;
    const oldToken = await activate();
    const [original] = (await jwks()).keys;

    const step1 = await rotateSigningKeys(keyDeps);
    t.services.keys.refresh();
    expect(step1.published).toBeTruthy();
    expect((await jwks()).keys.map((k) => k.kid).sort()).toEqual([original!.kid, step1.published].sort());
    // Still signed by the original key.
    expect(JSON.parse(Buffer.from(oldToken.split('.')[0]!, 'base64url').toString()).kid).toBe(original!.kid);

    const step2 = await rotateSigningKeys(keyDeps);
    t.services.keys.refresh();
    expect(step2).toEqual({ activated: step1.published, retired: original!.kid });
    const newToken = await activate();
    expect(JSON.parse(Buffer.from(newToken.split('.')[0]!, 'base64url').toString()).kid).toBe(
      step1.published,
    );

    // Both verify against the published set while the old key's tokens may still live.
    const set = createLocalJWKSet(await jwks());
    for (const token of [oldToken, newToken]) {
      await expect(
        jwtVerify(token, set, { currentDate: t.clock.now(), algorithms: ['EdDSA'] }),
      ).resolves.toBeTruthy();
    }
    t.clock.advance(MAX_TOKEN_LIFETIME_MS + 1000);
    t.services.keys.refresh();
    expect((await jwks()).keys.map((k) => k.kid)).toEqual([step1.published]);
  });
});

describe('unknown kid', () => {
  it('attack: tokens with made-up kids do not reload keys from the database on every request', async () => {
    let reads = 0;
    const db = new Proxy(t.database.db, {
      get(target, prop, receiver) {
        if (prop === 'select') reads++;
        const value = Reflect.get(target, prop, receiver);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    const ring = createSigningKeyRing({ db, secretKey: t.services.secretKey, clock: t.clock });
    await ring.jwks();
    const before = reads;
    for (let i = 0; i < 50; i++) expect(await ring.verificationKey(`k_forged${i}`)).toBeUndefined();
    expect(reads - before).toBe(1);
    // A few seconds later one more re-read is allowed (a key another instance just minted).
    t.clock.advance(UNKNOWN_KID_RELOAD_MS);
    await ring.verificationKey('k_forged_later');
    expect(reads - before).toBe(2);
  });
});
