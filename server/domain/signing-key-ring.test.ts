import { createLocalJWKSet, jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../test-support/services.ts';
import { MAX_TOKEN_LIFETIME_MS, rotateSigningKeys } from './signing-key-ring.ts';

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
