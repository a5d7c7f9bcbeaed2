import { eq } from 'drizzle-orm';
import type { Db } from '../db/database.ts';
import { secrets } from '../db/schema.ts';
import { decrypt, encrypt } from './encryption.ts';

/**
 * Secrets every instance must share (the HMAC pepper), stored encrypted. `getOrCreate` is safe
 * when instances start together: the first insert wins and everyone reads the winner.
 */
export function createSecretStore(db: Db, key: Buffer) {
  return {
    async getOrCreate(name: string, generate: () => string): Promise<string> {
      await db
        .insert(secrets)
        .values({ name, valueEnc: encrypt(key, generate()), createdAt: new Date() })
        .onConflictDoNothing();
      const [row] = await db.select().from(secrets).where(eq(secrets.name, name));
      return decrypt(key, row!.valueEnc);
    },
  };
}
