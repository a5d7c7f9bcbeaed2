import { eq } from 'drizzle-orm';
import { type Db, withTransaction } from '../engine/database.ts';
import { secrets, signingKeys, webhookEndpoints } from '../engine/schema.ts';

/** Stores a shared secret under `name` unless one is there already: the first writer wins. */
export async function insertSecretIfAbsent(db: Db, name: string, valueEnc: string, at: Date): Promise<void> {
  await db.insert(secrets).values({ name, valueEnc, createdAt: at }).onConflictDoNothing();
}

/** The stored (encrypted) value of a shared secret, or undefined. */
export async function findSecret(db: Db, name: string): Promise<string | undefined> {
  const [row] = await db.select({ valueEnc: secrets.valueEnc }).from(secrets).where(eq(secrets.name, name));
  return row?.valueEnc;
}

/** How many ciphertexts of each kind were re-encrypted. */
export interface ResealCounts {
  /** Shared secrets (`secrets`: the HMAC pepper and the like). */
  sharedSecrets: number;
  /** Private signing keys (`signing_keys`), of every status. */
  signingKeys: number;
  /** Webhook signing secrets (`webhook_endpoints`), current and still-overlapping previous ones. */
  webhookSecrets: number;
}

/**
 * Rewrites every ciphertext the secret key protects — shared secrets, private signing keys,
 * webhook signing secrets — through `reseal`, in one transaction with the rows locked, so a
 * `reseal` that throws (a ciphertext the old key does not open) leaves everything as it was.
 */
export function resealAllSecrets(db: Db, reseal: (ciphertext: string) => string): Promise<ResealCounts> {
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
