import { randomBytes } from 'node:crypto';
import { existsSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DataDirInUseError } from '../db/engine/data-dir-lock.ts';
import { migrate } from '../db/engine/migrate.ts';
import { openConfiguredDatabase } from '../db/engine/open-data-dir.ts';
import type { Config } from '../infra/env.ts';
import { type RotationCounts, rotateSecretKey } from '../secrets/rotate-secret-key.ts';
import { loadSecretKey } from '../secrets/secret-key.ts';

export const SECRETS_USAGE = `  secrets rotate           re-encrypt every stored secret under a new secret key (stop every instance
                           first); the new key is NEW_SECRET_KEY, or one is generated`;

/**
 * `secrets rotate`: the old key is the one the server uses (SECRET_KEY, else DATA_DIR/secret.key);
 * the new key is NEW_SECRET_KEY (same formats as SECRET_KEY) or 32 random bytes. Never taken
 * from the command line, where `ps` and shell history would keep it.
 *
 * With SECRET_KEY the new key is printed (once, when generated) for the operator to set on every
 * instance. With the key file, the new key is written to `secret.key.next` before the
 * transaction and moved into place after it commits; the old file is kept as
 * `secret.key.retired-<time>` because backups taken before open only with it.
 */
export async function rotateSecrets(
  config: Config,
  env: Record<string, string | undefined> = process.env,
): Promise<string> {
  const keyFile = config.SECRET_KEY ? undefined : join(config.DATA_DIR, 'secret.key');
  const nextFile = `${join(config.DATA_DIR, 'secret.key')}.next`;
  if (keyFile && !existsSync(keyFile)) {
    throw new Error(`No secret key to rotate: SECRET_KEY is unset and ${keyFile} does not exist.`);
  }
  if (keyFile && existsSync(nextFile)) {
    throw new Error(
      `${nextFile} is left from a rotation that did not finish. If the server does not start with ` +
        `${keyFile}, the database is already under the key in ${nextFile}: move it to ${keyFile}. ` +
        `Otherwise remove ${nextFile} and rotate again.`,
    );
  }
  const generated = env.NEW_SECRET_KEY ? undefined : randomBytes(32).toString('hex');
  const newKeyText = env.NEW_SECRET_KEY ?? generated!;
  const newKey = loadSecretKey({ secretKey: newKeyText, dataDir: config.DATA_DIR });
  const oldKey = loadSecretKey({ secretKey: config.SECRET_KEY, dataDir: config.DATA_DIR });
  if (newKey.equals(oldKey)) throw new Error('NEW_SECRET_KEY is the key in use: choose another one.');

  const { database, lock } = await openStopped(config);
  let counts: RotationCounts;
  try {
    await migrate(database);
    if (keyFile) writeFileSync(nextFile, `${newKey.toString('hex')}\n`, { mode: 0o600, flag: 'wx' });
    try {
      counts = await rotateSecretKey(database.db, oldKey, newKey);
    } catch (error) {
      if (keyFile) rmSync(nextFile, { force: true });
      throw error;
    }
  } finally {
    await database.close();
    lock?.release();
  }
  let retired: string | undefined;
  if (keyFile) {
    retired = `${keyFile}.retired-${new Date().toISOString().replace(/[:.]/g, '-')}`;
    renameSync(keyFile, retired);
    renameSync(nextFile, keyFile);
  }
  return report(counts, { keyFile, retired, generated });
}

async function openStopped(config: Config) {
  try {
    return await openConfiguredDatabase(config);
  } catch (error) {
    if (error instanceof DataDirInUseError) {
      throw new Error(
        'Stop the server first: rotation re-encrypts what it reads (and every other instance too).',
      );
    }
    throw error;
  }
}

function report(
  counts: RotationCounts,
  opts: { keyFile: string | undefined; retired: string | undefined; generated: string | undefined },
): string {
  const lines = [
    'Re-encrypted under the new key, in one transaction:',
    `  ${counts.sharedSecrets} shared secret(s) (the HMAC pepper and other instance-wide secrets)`,
    `  ${counts.signingKeys} token signing key(s)`,
    `  ${counts.webhookSecrets} webhook signing secret(s)`,
    '',
  ];
  if (opts.keyFile) {
    lines.push(
      `${opts.keyFile} now holds the new key; start the server as before.`,
      `The old key is kept in ${opts.retired}: backups taken before now open only with it.`,
      'Move it to where those backups are kept (or delete it once they have expired).',
    );
  } else {
    if (opts.generated) {
      lines.push(
        'New SECRET_KEY (shown once; store it where SECRET_KEY is kept):',
        `  ${opts.generated}`,
        '',
      );
    }
    lines.push(
      'Next: set SECRET_KEY to the new key on every instance, then start them; an instance still',
      'given the old key refuses to start. Backups taken before now open only with the old key.',
    );
  }
  return lines.join('\n');
}
