/** Licenses and credentials for the HTTP bench, made through the admin API of a running server. */

export interface BenchLicense {
  id: string;
  licenseKey: string;
  publishableKey: string;
  domain: string;
}

export interface BenchCredentials {
  licenses: BenchLicense[];
  /** Site access tokens (`licenses/activate`), spread over the licenses. */
  accessTokens: string[];
  /** Embed tokens (`license/activate` with the publishable key), spread over the licenses. */
  embedTokens: { token: string; origin: string }[];
}

// biome-ignore lint/suspicious/noExplicitAny: answers of our own admin API, read field by field
async function post(url: string, body: unknown, headers: Record<string, string> = {}): Promise<any> {
  const res = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  const json = await res.json();
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status} ${JSON.stringify(json)}`);
  return json;
}

/** Runs `n` jobs, `width` at a time. */
async function inParallel<T>(n: number, width: number, job: (i: number) => Promise<T>): Promise<T[]> {
  const out: T[] = new Array(n);
  let next = 0;
  await Promise.all(
    Array.from({ length: width }, async () => {
      for (let i = next++; i < n; i = next++) out[i] = await job(i);
    }),
  );
  return out;
}

/**
 * `licenseCount` agency licenses over two firms, then `tokenCount` access tokens (each for its own
 * site) and as many embed tokens, round-robin over the licenses: the bench then measures verification and lookups, not one
 * hot token.
 */
export async function provision(
  apiUrl: string,
  adminToken: string,
  opts: { licenseCount: number; tokenCount: number },
): Promise<BenchCredentials> {
  const admin = { authorization: `Bearer ${adminToken}` };
  const accounts = await Promise.all(
    ['Bench & Partners LLP', 'Second Bench Trust Co.'].map(
      async (name) => (await post(`${apiUrl}/admin/v1/accounts`, { name }, admin)).account.id as string,
    ),
  );
  const licenses = await inParallel(opts.licenseCount, 4, async (i) => {
    const domain = `bench-${i}.example.com`;
    const created = await post(
      `${apiUrl}/admin/v1/licenses`,
      {
        accountId: accounts[i % accounts.length],
        plan: 'agency',
        // Each access token is its own site (a second activation of a site ends its first family).
        seats: 200,
        domains: [domain, `*.${domain}`],
        paidThrough: '2099-01-01',
      },
      admin,
    );
    return {
      id: created.license.id,
      licenseKey: created.licenseKey,
      publishableKey: created.publishableKey,
      domain,
    } satisfies BenchLicense;
  });
  const at = (i: number) => licenses[i % licenses.length]!;
  const accessTokens = await inParallel(opts.tokenCount, 8, async (i) => {
    const { licenseKey, domain } = at(i);
    const siteDomain = `site-${i}.${domain}`;
    return (await post(`${apiUrl}/v1/api/licenses/activate`, { licenseKey, siteDomain })).accessJwt as string;
  });
  const embedTokens = await inParallel(opts.tokenCount, 8, async (i) => {
    const origin = `https://${at(i).domain}`;
    const session = await post(
      `${apiUrl}/v1/api/license/activate`,
      { licenseKey: at(i).publishableKey },
      { origin },
    );
    return { token: session.token as string, origin };
  });
  return { licenses, accessTokens, embedTokens };
}
