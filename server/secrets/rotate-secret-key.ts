import type { Db } from '../db/engine/database.ts';
import { type ResealCounts, resealAllSecrets } from '../db/repos/secrets-repo.ts';
import { encrypt } from './encryption.ts';
import { openSecret } from './secret-store.ts';

/** How many ciphertexts of each kind were re-encrypted. */
export type RotationCounts = ResealCounts;

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
  return resealAllSecrets(db, (text) => encrypt(newKey, openSecret(oldKey, text)));
}
