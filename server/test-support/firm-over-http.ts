/**
 * A firm set up through a running server's admin API, and the calls a widget and an integrator
 * make, for the suites that drive real server processes (crash, shutdown, key rotation).
 */

import { solvedAltcha } from './pow.ts';

export const FIRM_ORIGIN = 'https://smithlaw.com';

export interface Firm {
  accountId: string;
  licenseId: string;
  publishableKey: string;
  /** The secret license key (site activation). */
  licenseKey: string;
  /** An API key with every scope (reads leads back). */
  apiKey: string;
}

export const postJson = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });

export async function adminPost<T>(
  apiUrl: string,
  adminToken: string,
  path: string,
  body: unknown,
): Promise<T> {
  const res = await postJson(`${apiUrl}${path}`, body, { authorization: `Bearer ${adminToken}` });
  if (res.status !== 200) throw new Error(`${path} answered ${res.status}: ${await res.text()}`);
  return (await res.json()) as T;
}

/** An account with a paid agency license for smithlaw.com and an admin API key. */
export async function createFirm(apiUrl: string, adminToken: string, name: string): Promise<Firm> {
  const { account } = await adminPost<{ account: { id: string } }>(apiUrl, adminToken, '/admin/v1/accounts', {
    name,
  });
  const license = await adminPost<{ license: { id: string }; publishableKey: string; licenseKey: string }>(
    apiUrl,
    adminToken,
    '/admin/v1/licenses',
    { accountId: account.id, plan: 'agency', seats: 3, domains: ['smithlaw.com'], paidThrough: '2099-01-01' },
  );
  const key = await adminPost<{ apiKey: string }>(apiUrl, adminToken, '/admin/v1/api-keys', {
    accountId: account.id,
    name: 'test reader',
    scopes: ['admin'],
  });
  return {
    accountId: account.id,
    licenseId: license.license.id,
    publishableKey: license.publishableKey,
    licenseKey: license.licenseKey,
    apiKey: key.apiKey,
  };
}

/** An embed token, as loader.js gets it on the firm's page. */
export async function openEmbedSession(apiUrl: string, publishableKey: string): Promise<string> {
  const res = await postJson(
    `${apiUrl}/v1/api/license/activate`,
    { licenseKey: publishableKey, calculator: 'rmd' },
    { origin: FIRM_ORIGIN },
  );
  if (res.status !== 200) throw new Error(`embed session answered ${res.status}: ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

/** The lead a visitor sends; its e-mail address carries the key, so stored leads map back to it. */
export const leadFor = (key: string) => ({
  calculator: 'rmd',
  name: `Visitor ${key}`,
  email: `${key}@example.com`,
  state: 'PA',
  consent: true,
});

export const postLead = (apiUrl: string, embedToken: string, key: string) =>
  postJson(`${apiUrl}/v1/api/leads`, leadFor(key), {
    authorization: `Bearer ${embedToken}`,
    'idempotency-key': key,
  });

/**
 * A lead as the widget sends it: with a solved proof of work, so it is live (alerted, delivered).
 * Without one (`postLead`) the lead is stored but held (`no_proof_of_work`).
 */
export const postLiveLead = async (apiUrl: string, embedToken: string, key: string) =>
  postJson(
    `${apiUrl}/v1/api/leads`,
    { ...leadFor(key), altcha: await solvedAltcha(apiUrl, embedToken) },
    { authorization: `Bearer ${embedToken}`, 'idempotency-key': key },
  );

export interface StoredLead {
  leadId: string;
  email: string;
}

/** Every lead of the firm, page by page (test-mode leads included). */
export async function listAllLeads(apiUrl: string, apiKey: string): Promise<StoredLead[]> {
  const leads: StoredLead[] = [];
  let cursor: string | null = null;
  do {
    const query = new URLSearchParams({ limit: '200', includeTest: 'true', ...(cursor ? { cursor } : {}) });
    const res = await fetch(`${apiUrl}/v1/api/leads?${query}`, {
      headers: { authorization: `Bearer ${apiKey}` },
    });
    if (res.status !== 200) throw new Error(`GET /leads answered ${res.status}: ${await res.text()}`);
    const page = (await res.json()) as { data: StoredLead[]; nextCursor: string | null };
    leads.push(...page.data);
    cursor = page.nextCursor;
  } while (cursor);
  return leads;
}

/**
 * Stored leads against what the clients were told: `duplicated` counts leads beyond the first for
 * one key, `lost` the keys sent without a stored lead or whose acknowledged lead id is missing.
 */
export function compareStoredLeads(
  stored: StoredLead[],
  acknowledged: Map<string, string>,
  sent: Set<string>,
): { stored: number; duplicated: number; lost: number } {
  const byKey = new Map<string, string[]>();
  for (const lead of stored) {
    const key = lead.email.replace(/@example\.com$/, '');
    byKey.set(key, [...(byKey.get(key) ?? []), lead.leadId]);
  }
  let duplicated = 0;
  for (const ids of byKey.values()) duplicated += ids.length - 1;
  let lost = 0;
  for (const key of sent) {
    const ids = byKey.get(key) ?? [];
    const ackedId = acknowledged.get(key);
    if (ids.length === 0 || (ackedId !== undefined && !ids.includes(ackedId))) lost++;
  }
  return { stored: stored.length, duplicated, lost };
}
