import { countAccounts } from '../db/accounts-repo.ts';
import { newId } from '../db/ids.ts';
import { insertLead } from '../db/leads-repo.ts';
import { findLicenseByKeyHmac } from '../db/licenses-repo.ts';
import { estimate } from './calculations.ts';
import { hmacSecret } from './credential-formats.ts';
import { demoCredentials } from './demo-credentials.ts';
import { createAccount, createApiKey, createLicense } from './license-admin.ts';
import type { LicensingDeps } from './token-set.ts';

export interface DemoInfo {
  licenseKey: string;
  apiKey: string;
  /** The demo firm and its license (printed by `npm start`; `demo seed --account` takes the id). */
  accountId: string | null;
  licenseId: string | null;
  created: boolean;
}

/**
 * First start on an empty database: a demo firm with a license for localhost (development hosts
 * need no seat), an API key, and sample results and leads to read over REST. Later starts only
 * re-derive the credentials to print them.
 */
export async function seedDemo(deps: LicensingDeps, secretKey: Buffer): Promise<DemoInfo> {
  const credentials = demoCredentials(secretKey);
  if ((await countAccounts(deps.db)) > 0) {
    const license = await findLicenseByKeyHmac(deps.db, hmacSecret(deps.pepper, credentials.licenseKey));
    return {
      ...credentials,
      accountId: license?.accountId ?? null,
      licenseId: license?.id ?? null,
      created: false,
    };
  }
  const account = await createAccount(deps, { name: 'Demo Estate Law LLP', email: 'demo@svc.test' });
  const now = deps.clock.now();
  const { license } = await createLicense(deps, {
    accountId: account.id,
    plan: 'pro',
    seats: 3,
    domains: ['localhost', 'demo.svc.test'],
    paidThrough: new Date(now.getTime() + 365 * 86_400_000),
    licenseKey: credentials.licenseKey,
  });
  await createApiKey(deps, { accountId: account.id, name: 'Demo API key', apiKey: credentials.apiKey });
  await seedSampleLeads(deps, account.id, license.id, now);
  return { ...credentials, accountId: account.id, licenseId: license.id, created: true };
}

const SAMPLES = [
  {
    name: 'Zoë Ødegård',
    email: 'zoe@example.com',
    state: 'NY',
    estateValue: 8_200_000,
    status: 'new' as const,
  },
  {
    name: 'Łukasz Nowak',
    email: 'lukasz@example.com',
    state: 'MA',
    estateValue: 3_400_000,
    status: 'contacted' as const,
  },
  {
    name: 'María Núñez',
    email: 'maria@example.com',
    state: 'WA',
    estateValue: 5_750_000,
    status: 'converted' as const,
  },
];

async function seedSampleLeads(
  deps: LicensingDeps,
  accountId: string,
  licenseId: string,
  now: Date,
): Promise<void> {
  const principal = {
    kind: 'embed' as const,
    accountId,
    licenseId,
    domain: 'localhost',
    origin: 'http://localhost:8789',
    jti: 'demo-seed',
  };
  for (const sample of SAMPLES) {
    const result = await estimate(deps, principal, {
      calculator: 'estate-tax',
      state: sample.state,
      inputs: { estateValue: sample.estateValue },
    });
    await insertLead(deps.db, {
      id: newId('lead'),
      accountId,
      licenseId,
      calculator: 'estate-tax',
      resultId: result.resultId,
      name: sample.name,
      email: sample.email,
      state: sample.state,
      status: sample.status,
      consentText: 'I agree to be contacted about my estate plan by this firm.',
      consentedAt: now,
      createdAt: now,
      updatedAt: now,
    });
  }
}
