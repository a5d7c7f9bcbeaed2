import { randomBytes, scryptSync } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KEY_BYTES = 32;
const MIN_PASSPHRASE = 32;
// A fixed salt: every instance must derive the same key from the same SECRET_KEY; the salt only
// keeps this derivation apart from any other use of the passphrase.
const SALT = 'svc/secret-key/v1';
const SCRYPT = { N: 2 ** 15, r: 8, p: 1, maxmem: 64 * 1024 * 1024 };

const derived = new Map<string, Buffer>();

/**
 * The key that encrypts the secrets stored in the database. It must not live in the database:
 * SECRET_KEY (shared by every instance) or, for the embedded default, DATA_DIR/secret.key (0600).
 * SECRET_KEY may be 32 bytes in hex or base64; any other text of 32+ characters is a passphrase
 * stretched with scrypt.
 */
export function loadSecretKey(opts: { secretKey?: string | undefined; dataDir: string }): Buffer {
  if (opts.secretKey) return keyFromText(opts.secretKey);
  return readOrCreateKeyFile(join(opts.dataDir, 'secret.key'));
}

function keyFromText(text: string): Buffer {
  const raw = decodeRawKey(text);
  if (raw) return raw;
  if (text.length < MIN_PASSPHRASE) {
    throw new Error(
      `SECRET_KEY must be 32 bytes in hex or base64, or a passphrase of ${MIN_PASSPHRASE}+ characters`,
    );
  }
  // scrypt is slow on purpose; tests and the CLI derive the same passphrase more than once.
  let key = derived.get(text);
  if (!key) {
    key = scryptSync(text, SALT, KEY_BYTES, SCRYPT);
    derived.set(text, key);
  }
  return Buffer.from(key);
}

function decodeRawKey(text: string): Buffer | undefined {
  if (/^[0-9a-f]{64}$/i.test(text)) return Buffer.from(text, 'hex');
  if (/^[A-Za-z0-9+/_-]{43}=?$/.test(text)) {
    const bytes = Buffer.from(text.replace(/-/g, '+').replace(/_/g, '/'), 'base64');
    if (bytes.length === KEY_BYTES) return bytes;
  }
  return undefined;
}

function readOrCreateKeyFile(file: string): Buffer {
  let text: string | undefined;
  try {
    text = readFileSync(file, 'utf8').trim();
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (text !== undefined) {
    if (!/^[0-9a-f]{64}$/i.test(text)) throw new Error(`${file} does not hold a 32-byte hex key`);
    return Buffer.from(text, 'hex');
  }
  mkdirSync(join(file, '..'), { recursive: true });
  const key = randomBytes(KEY_BYTES);
  writeFileSync(file, `${key.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
  return key;
}
