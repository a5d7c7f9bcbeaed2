/** Firm accounts, as the admin CLI, the admin API and the demo seed create them. */

import { newId } from '../../db/engine/ids.ts';
import { findAccountById, insertAccount } from '../../db/repos/accounts-repo.ts';
import { AppError } from '../../lib/errors.ts';
import type { LicensingDeps } from '../deps.ts';

export async function createAccount(deps: LicensingDeps, input: { name: string; email?: string }) {
  return insertAccount(deps.db, {
    id: newId('acct'),
    name: input.name,
    email: input.email ?? null,
    createdAt: deps.clock.now(),
  });
}

/** Unknown account ids are 404 NOT_FOUND naming the id (not a foreign-key failure). */
export async function requireAccount(deps: LicensingDeps, accountId: string) {
  const account = await findAccountById(deps.db, accountId);
  if (!account) throw new AppError('NOT_FOUND', `No account ${accountId}.`);
  return account;
}
