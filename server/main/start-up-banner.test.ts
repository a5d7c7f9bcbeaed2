import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { startFromTemplate } from '../test-support/pglite-template.ts';
import { type ServerProcess, startServerProcess, stopServerProcess } from '../test-support/server-process.ts';
import { bannerOf } from './start-up-banner.ts';

const SECRET = /svc_pat_|SVC-[0-9A-Z]{4}|svc_pk_|#token=/;

/** Waits for the banner (it follows the API line), lets `then` use the server, and stops it. */
async function bannerOfRun(
  env: Record<string, string>,
  then?: (server: ServerProcess) => Promise<void>,
): Promise<string> {
  let server: ServerProcess | undefined;
  try {
    server = await startServerProcess({ DATABASE_URL: '', REDIS_URL: '', ...env });
    const running = server;
    await expect.poll(() => running.output(), { timeout: 30_000, interval: 50 }).toMatch(/\n\n\s*$/);
    await then?.(server);
    return server.output();
  } finally {
    await stopServerProcess(server);
  }
}

const freshDataDir = () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'svc-banner-'));
  startFromTemplate(dataDir);
  return dataDir;
};

describe('demo credentials at start-up (real processes)', { timeout: 300_000 }, () => {
  it('the start that creates the demo firm prints them once; later starts say how to get them', async () => {
    const dataDir = freshDataDir();
    const first = await bannerOfRun({ DATA_DIR: dataDir });
    expect(first).toContain('Demo credentials');
    expect(first).toMatch(/API key\s+svc_pat_/);
    expect(first).toMatch(/#token=/);
    let again: { demo: Record<string, string> } | undefined;
    const second = await bannerOfRun({ DATA_DIR: dataDir }, async (server) => {
      const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
      const res = await fetch(`${server.url}/admin/v1/demo/credentials`, {
        method: 'POST',
        headers: { authorization: `Bearer ${token}` },
      });
      again = await res.json();
    });
    expect(second).toContain('svc is running');
    expect(second).not.toMatch(SECRET);
    expect(second).toContain('npm run svc -- demo credentials');
    // What that command prints: the same keys as the first start, and a new sign-in link.
    expect(first).toContain(again!.demo.apiKey!);
    expect(again!.demo.signInLink).toMatch(/#token=svc_ml_/);
  });

  it('SEED_DEMO=false prints nothing of the kind', async () => {
    const out = await bannerOfRun({ SEED_DEMO: 'false', DATA_DIR: freshDataDir() });
    expect(out).toContain('svc is running');
    expect(out).not.toMatch(SECRET);
    expect(out).not.toMatch(/demo/i);
  });
});

describe('bannerOf', () => {
  const running = {
    apiUrl: 'http://127.0.0.1:1',
    embedUrl: 'http://127.0.0.1:2',
    examplesUrl: 'http://localhost:3',
    portalUrl: 'http://localhost:1',
    demo: {
      licenseKey: 'SVC-AAAA-BBBB',
      publishableKey: 'svc_pk_x',
      apiKey: 'svc_pat_x',
      accountId: 'acct_1',
      licenseId: 'lic_1',
      created: true,
    },
    demoSignInLink: 'http://localhost:1/portal/sign-in/link#token=svc_ml_x',
  };
  it('in production even a freshly created demo firm prints no credentials', () => {
    const text = bannerOf(running, 'production');
    expect(text).not.toMatch(SECRET);
    expect(text).toContain('npm run svc -- demo credentials');
  });
  it('in development the creating start prints them', () => {
    expect(bannerOf(running, 'development')).toMatch(/svc_pat_x/);
  });
  it('warns when DESTINATION_BASE_URLS sends CRM destinations elsewhere', () => {
    expect(bannerOf(running, 'development')).not.toContain('DESTINATION_BASE_URLS');
    expect(bannerOf(running, 'development', 'hubspot=http://127.0.0.1:9')).toMatch(
      /WARNING\s+DESTINATION_BASE_URLS is set: CRM destinations go to hubspot=http:\/\/127\.0\.0\.1:9/,
    );
  });
});
