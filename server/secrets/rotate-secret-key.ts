import { eq } from 'drizzle-orm';
import { type Db, withTransaction } from '../db/engine/database.ts';
import { secrets, signingKeys, webhookEndpoints } from '../db/engine/schema.ts';
import { encrypt } from './encryption.ts';
import { openSecret } from './secret-store.ts';

/** How many ciphertexts of each kind were re-encrypted. */
export interface RotationCounts {
  /** Shared secrets (`secrets`: the HMAC pepper and the like). */
  sharedSecrets: number;
  /** Private signing keys (`signing_keys`), of every status. */
  signingKeys: number;
  /** Webhook signing secrets (`webhook_endpoints`), current and still-overlapping previous ones. */
  webhookSecrets: number;
}

/**
 * Re-encrypts everything the secret key protects in the database — the shared secrets, the
 * private signing keys and the webhook signing secrets — from `oldKey` to `newKey`, in one
 * transaction with the rows locked: if any ciphertext does not open with `oldKey`
 * (`WrongSecretKeyError`) or anything else fails, nothing changes. The plaintexts stay the same,
 * so tokens signed before keep verifying and receivers keep their webhook secrets.
 *
 * Every instance must be stopped: one still running with the old key would fail to read, or
 * would write, ciphertexts under the old key after the rotation.
 */
export function rotateSecretKey(db: Db, oldKey: Buffer, newKey: Buffer): Promise<RotationCounts> {
  const reseal = (text: string) => encrypt(newKey, openSecret(oldKey, text));
  return withTransaction(db, async (tx) => {
    const shared = await tx.select().from(secrets).for('update');
    for (const row of shared) {
      await tx
        .update(secrets)
        .set({ valueEnc: reseal(row.valueEnc) })
        .where(eq(secrets.name, row.name));
    }
    const keys = await tx.select().from(signingKeys).for('update');
    for (const row of keys) {
      await tx
        .update(signingKeys)
        .set({ privateKeyEnc: reseal(row.privateKeyEnc) })
        .where(eq(signingKeys.kid, row.kid));
    }
    const endpoints = await tx.select().from(webhookEndpoints).for('update');
    let webhookSecrets = 0;
    for (const row of endpoints) {
      const previous = row.previousSecretEnc === null ? null : reseal(row.previousSecretEnc);
      await tx
        .update(webhookEndpoints)
        .set({ secretEnc: reseal(row.secretEnc), previousSecretEnc: previous })
        .where(eq(webhookEndpoints.id, row.id));
      webhookSecrets += previous === null ? 1 : 2;
    }
    return { sharedSecrets: shared.length, signingKeys: keys.length, webhookSecrets };
  });
}
