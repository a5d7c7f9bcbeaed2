import { newId } from '../../db/engine/ids.ts';
import {
  countAccounts,
  setOwnerAsAlertAddressIfEmpty,
  updateAccount as updateAccountRow,
} from '../../db/repos/accounts-repo.ts';
import { hasSettingChange, recordAudit } from '../../db/repos/audit-repo.ts';
import { insertLead } from '../../db/repos/leads-repo.ts';
import { findLicenseByKey, insertLicenseKey, listUsableKeys } from '../../db/repos/license-keys-repo.ts';
import { createAccount } from '../accounts/accounts.ts';
import { createApiKey } from '../accounts/api-keys.ts';
import { hmacSecret, lastFour } from '../credentials/formats.ts';
import type { LicensingDeps } from '../deps.ts';
import { createLicense } from '../licensing/licenses.ts';
import { estimate } from '../results/calculations.ts';
import { demoCredentials } from './credentials.ts';
import { seedDemoTraffic } from './leads.ts';

export interface DemoInfo {
  /** Secret license key: site activation from a plugin or server. */
  licenseKey: string;
  /** Publishable key: the loader's data-key in pages. */
  publishableKey: string;
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
/** The demo firm's owner: its account e-mail and its lead-alert address. */
const DEMO_OWNER = 'demo@svc.test';

export async function seedDemo(
  deps: LicensingDeps,
  secretKey: Buffer,
  opts: { create?: boolean } = {},
): Promise<DemoInfo> {
  const credentials = demoCredentials(secretKey);
  // SEED_DEMO=false: an empty database stays empty (production); the credentials open nothing.
  if (opts.create === false && (await countAccounts(deps.db)) === 0)
    return { ...credentials, accountId: null, licenseId: null, created: false };
  if ((await countAccounts(deps.db)) > 0) {
    const license = await ensureDemoPublishableKey(deps, credentials);
    if (license) await ensureDemoAlertAddress(deps, license.accountId);
    return {
      ...credentials,
      accountId: license?.accountId ?? null,
      licenseId: license?.id ?? null,
      created: false,
    };
  }
  const account = await createAccount(deps, { name: 'Demo Estate Law LLP', email: DEMO_OWNER });
  // Its owner hears of its leads, as a new firm would expect: the first lead already writes a mail.
  await updateAccountRow(deps.db, account.id, { alertEmails: [DEMO_OWNER] });
  const now = deps.clock.now();
  const { license } = await createLicense(deps, {
    accountId: account.id,
    plan: 'pro',
    seats: 3,
    domains: ['localhost', 'demo.svc.test'],
    paidThrough: new Date(now.getTime() + 365 * 86_400_000),
    licenseKey: credentials.licenseKey,
    publishableKey: credentials.publishableKey,
  });
  await createApiKey(deps, {
    accountId: account.id,
    name: 'Demo API key',
    scopes: ['admin'],
    apiKey: credentials.apiKey,
  });
  await seedSampleLeads(deps, account.id, license.id, now);
  return { ...credentials, accountId: account.id, licenseId: license.id, created: true };
}

/**
 * A demo firm seeded before publishable keys existed gets the derived publishable key (the one
 * `npm start` prints) rather than a random one.
 */
async function ensureDemoPublishableKey(
  deps: LicensingDeps,
  credentials: { licenseKey: string; publishableKey: string },
): Promise<{ id: string; accountId: string } | undefined> {
  const now = deps.clock.now();
  const found = await findLicenseByKey(
    deps.db,
    'secret',
    { keyHmac: hmacSecret(deps.pepper, credentials.licenseKey) },
    now,
  );
  if (!found) return undefined;
  const keys = await listUsableKeys(deps.db, found.license.id, now);
  if (keys.some((k) => k.kind === 'publishable')) return found.license;
  await insertLicenseKey(deps.db, {
    licenseId: found.license.id,
    kind: 'publishable',
    keyValue: credentials.publishableKey,
    keyLast4: lastFour(credentials.publishableKey),
    at: now,
  });
  return found.license;
}

/**
 * A demo firm seeded before its owner got its alerts has an empty alert list: the owner's address
 * goes in, once. A list someone emptied stays empty: every change to it, from the portal, the
 * admin API or this step, leaves an `account.updated` entry naming the alert addresses, and any
 * such entry means the list is the firm's choice.
 */
async function ensureDemoAlertAddress(deps: LicensingDeps, accountId: string): Promise<void> {
  if (await hasSettingChange(deps.db, accountId, 'alertEmails')) return;
  if (!(await setOwnerAsAlertAddressIfEmpty(deps.db, accountId))) return;
  await recordAudit(deps.db, {
    accountId,
    actor: 'demo',
    action: 'account.updated',
    subject: accountId,
    data: { before: { alertEmails: '0 addresses' }, after: { alertEmails: '1 addresses' } },
    at: deps.clock.now(),
  });
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

const SAMPLE_PAGE = 'https://demo.svc.test/estate-planning';

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
    plan: 'pro',
    domain: 'localhost',
    // The demo site's own origin (an allowed domain), so the samples carry its pages.
    origin: 'https://demo.svc.test',
    jti: 'demo-seed',
    sid: 'sid_demo_seed',
    // The sample data is live: it is what a firm's lead list looks like.
    test: false,
  };
  const counted = { accountId, licenseId, calculator: 'estate-tax', page: SAMPLE_PAGE, test: false };
  for (const sample of SAMPLES) {
    const result = await estimate(deps, principal, {
      calculator: 'estate-tax',
      state: sample.state,
      inputs: { estateValue: sample.estateValue },
      page: SAMPLE_PAGE,
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
      page: SAMPLE_PAGE,
      createdAt: now,
      updatedAt: now,
    });
    deps.funnel?.add({ kind: 'view', ...counted });
    deps.funnel?.add({ kind: 'lead', ...counted });
  }
  await seedDemoTraffic(deps, { accountId, licenseId }, now);
}
