import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { createPortalPageRoutes } from './pages.ts';

/**
 * The portal's pages asked on the API's host (`http://127.0.0.1:8787/portal/` when the portal is
 * `http://localhost:8787`) go to the portal's origin, where its session cookie and sign-in work;
 * on the portal's host, or when both are one origin, they are served.
 */
const distDir = mkdtempSync(join(tmpdir(), 'svc-portal-hosts-'));
writeFileSync(join(distDir, 'index.html'), '<!doctype html><title>portal</title>');
afterAll(() => rmSync(distDir, { recursive: true, force: true }));

const pages = createPortalPageRoutes({
  distDir,
  apiUrl: 'http://127.0.0.1:8787',
  embedUrl: 'http://127.0.0.1:8788',
  portalUrl: 'http://localhost:8787',
});
const get = (url: string) => pages.request(new Request(url));

describe('portal pages on the API host', () => {
  it.each([
    ['/portal/', '/portal/'],
    ['/portal', '/portal'],
    ['/portal/leads/lead_1?status=new&q=a%20b', '/portal/leads/lead_1?status=new&q=a%20b'],
    ['/portal/sign-in/link', '/portal/sign-in/link'],
  ])('%s goes to the portal origin', async (path, to) => {
    const res = await get(`http://127.0.0.1:8787${path}`);
    expect(res.status).toBe(302);
    expect(res.headers.get('location')).toBe(`http://localhost:8787${to}`);
  });

  it('on the portal host the page is served', async () => {
    const res = await get('http://localhost:8787/portal/leads');
    expect(res.status).toBe(200);
    expect(await res.text()).toContain('<title>portal</title>');
  });

  it('with one origin for both, it is served where asked', async () => {
    const one = createPortalPageRoutes({
      distDir,
      apiUrl: 'https://svc.firm.example',
      embedUrl: 'https://embed.firm.example',
      portalUrl: 'https://svc.firm.example',
    });
    expect((await one.request(new Request('https://svc.firm.example/portal/'))).status).toBe(200);
  });
});
