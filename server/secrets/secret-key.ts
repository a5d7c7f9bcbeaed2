import { createHash, randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The key that encrypts the secrets stored in the database. It must not live in the database:
 * SECRET_KEY (shared by every instance) or, for the embedded default, DATA_DIR/secret.key (0600).
 * A SECRET_KEY of 64 hex characters is used as is; any other text (≥ 32 chars) is hashed to 32 bytes.
 */
export function loadSecretKey(opts: { secretKey?: string | undefined; dataDir: string }): Buffer {
  if (opts.secretKey) {
    if (/^[0-9a-f]{64}$/i.test(opts.secretKey)) return Buffer.from(opts.secretKey, 'hex');
    return createHash('sha256').update(`svc-secret-key:${opts.secretKey}`).digest();
  }
  const file = join(opts.dataDir, 'secret.key');
  if (existsSync(file)) return Buffer.from(readFileSync(file, 'utf8').trim(), 'hex');
  mkdirSync(opts.dataDir, { recursive: true });
  const key = randomBytes(32);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
