import type { Db } from '../db/engine/database.ts';
import { findSecret, insertSecretIfAbsent } from '../db/repos/secrets-repo.ts';
import { decrypt, encrypt } from './encryption.ts';

/** The secret key in use cannot open what the database holds: wrong SECRET_KEY or foreign key file. */
class WrongSecretKeyError extends Error {
  override name = 'WrongSecretKeyError';
  constructor() {
    super(
      'The secret key does not open this database: SECRET_KEY is not the one this database was set up ' +
        'with, or DATA_DIR/secret.key belongs to another data directory. Start with the original ' +
        'SECRET_KEY (or key file); to change keys use `npm run svc -- secrets rotate`.',
    );
  }
}

/** Decrypts a stored secret, turning a failed authentication tag into `WrongSecretKeyError`. */
export function openSecret(key: Buffer, text: string): string {
  try {
    return decrypt(key, text);
  } catch {
    throw new WrongSecretKeyError();
  }
}

/**
 * Whether `db` is an svc database that `key` opens: false when it holds no HMAC pepper (not an
 * svc database at all); `WrongSecretKeyError` when it is one, set up under another secret key.
 */
export async function secretKeyOpens(db: Db, key: Buffer): Promise<boolean> {
  const pepper = await findSecret(db, 'hmac-pepper');
  if (pepper === undefined) return false;
  openSecret(key, pepper);
  return true;
}

/**
 * Secrets every instance must share (the HMAC pepper), stored encrypted. `getOrCreate` is safe
 * when instances start together: the first insert wins and everyone reads the winner.
 */
export function createSecretStore(db: Db, key: Buffer) {
  return {
    async getOrCreate(name: string, generate: () => string): Promise<string> {
      await insertSecretIfAbsent(db, name, encrypt(key, generate()), new Date());
      return openSecret(key, (await findSecret(db, name))!);
    },
  };
}
