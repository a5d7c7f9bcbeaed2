import { newId } from '../../db/engine/ids.ts';
import {
  insertApiKey,
  listApiKeysByAccount,
  revokeApiKey as revokeApiKeyRow,
} from '../../db/repos/api-keys-repo.ts';
import { recordAudit } from '../../db/repos/audit-repo.ts';
import { AppError } from '../../lib/errors.ts';
import { invalidateCaches } from '../caches/lookup-caches.ts';
import { generateApiKey, hmacSecret, lastFour } from '../credentials/formats.ts';
import { type ApiKeyScope, DEFAULT_API_KEY_SCOPES, formatScopes } from '../credentials/scopes.ts';
import type { LicensingDeps } from '../deps.ts';

import { requireAccount } from './accounts.ts';

/**
 * API keys of a firm, created and revoked by the admin CLI, the admin API and the portal. The key is
 * returned once, here, and stored only as an HMAC.
 */
export async function createApiKey(
  deps: LicensingDeps,
  input: {
    accountId: string;
    name: string;
    /** Default `leads:read`: what an AI tool needs, and nothing more. */
    scopes?: readonly ApiKeyScope[];
    expiresAt?: Date;
    apiKey?: string;
    /** The portal user who created it; null from the CLI and the admin API. */
    createdBy?: string;
  },
  /** For the audit trail: `user:<e-mail>` from the portal; the CLI and admin API are the operator. */
  actor = 'operator',
) {
  await requireAccount(deps, input.accountId);
  const scopes = input.scopes?.length ? input.scopes : DEFAULT_API_KEY_SCOPES;
  const apiKey = input.apiKey ?? generateApiKey();
  const row = await insertApiKey(deps.db, {
    id: newId('key'),
    accountId: input.accountId,
    name: input.name,
    keyHmac: hmacSecret(deps.pepper, apiKey),
    keyLast4: lastFour(apiKey),
    scopes: formatScopes(scopes),
    createdBy: input.createdBy ?? null,
    createdAt: deps.clock.now(),
    expiresAt: input.expiresAt ?? null,
  });
  await recordAudit(deps.db, {
    accountId: input.accountId,
    actor,
    action: 'apikey.created',
    subject: row.id,
    data: { name: row.name, scopes: [...scopes] },
    at: row.createdAt,
  });
  return { apiKey, row };
}

export async function listApiKeys(deps: LicensingDeps, accountId: string) {
  await requireAccount(deps, accountId);
  return listApiKeysByAccount(deps.db, accountId);
}

/**
 * Revokes one of the account's API keys; takes effect on the key's next request. An unknown key,
 * another account's key or one already revoked is NOT_FOUND, so the caller learns that nothing
 * changed (and nothing about other accounts' keys).
 */
export async function revokeApiKey(deps: LicensingDeps, accountId: string, id: string, actor = 'operator') {
  const now = deps.clock.now();
  if (!(await revokeApiKeyRow(deps.db, accountId, id, now)))
    throw new AppError('NOT_FOUND', 'No such active API key in this account.');
  await recordAudit(deps.db, { accountId, actor, action: 'apikey.revoked', subject: id, at: now });
  await invalidateCaches(deps);
}
