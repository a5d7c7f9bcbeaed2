import { countAccounts } from '../db/accounts-repo.ts';
import { demoCredentials } from './demo-credentials.ts';
import { createAccount, createApiKey, createLicense } from './license-admin.ts';
import type { LicensingDeps } from './token-set.ts';

export interface DemoInfo {
  licenseKey: string;
  apiKey: string;
  created: boolean;
}

/**
 * First start on an empty database: a demo firm with a license for localhost (development hosts
 * need no seat), an API key and, once the calculators land, sample leads. Later starts only
 * re-derive the credentials to print them.
 */
export async function seedDemo(deps: LicensingDeps, secretKey: Buffer): Promise<DemoInfo> {
  const credentials = demoCredentials(secretKey);
  if ((await countAccounts(deps.db)) > 0) return { ...credentials, created: false };
  const account = await createAccount(deps, { name: 'Demo Estate Law LLP', email: 'demo@svc.test' });
  const now = deps.clock.now();
  await createLicense(deps, {
    accountId: account.id,
    plan: 'pro',
    seats: 3,
    domains: ['localhost', 'demo.svc.test'],
    paidThrough: new Date(now.getTime() + 365 * 86_400_000),
    licenseKey: credentials.licenseKey,
  });
  await createApiKey(deps, { accountId: account.id, name: 'Demo API key', apiKey: credentials.apiKey });
  return { ...credentials, created: true };
}
