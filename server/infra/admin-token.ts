import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The admin API's bearer token: ADMIN_TOKEN when set (several instances), else a random token kept
 * in DATA_DIR/admin-token (mode 0600), created on first start and read by the CLI.
 */
export function loadAdminToken(dataDir: string, fromEnv?: string): string {
  if (fromEnv) return fromEnv;
  const file = join(dataDir, 'admin-token');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(dataDir, { recursive: true });
  const token = `svc_admin_${randomBytes(32).toString('base64url')}`;
  writeFileSync(file, `${token}\n`, { mode: 0o600, flag: 'wx' });
  return token;
}

export const serverInfoFile = (dataDir: string) => join(dataDir, 'server.json');
