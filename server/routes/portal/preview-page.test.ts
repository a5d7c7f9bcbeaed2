import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestContext, type TestContext } from '../../test-support/services.ts';

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(() => t.close());

describe('GET /portal/preview (the Embed code page’s live preview)', () => {
  it('mounts every chosen calculator with the options the page’s table allows, and drops the rest', async () => {
    const query = new URLSearchParams({
      calculators: 'estate-tax,rmd',
      key: 'svc_pk_preview',
      theme: 'dark',
      accent: '#7a1f3d',
      radius: '99',
      font: 'x;}body{display:none',
      state: 'NY',
    });
    const res = await t.get(`/portal/preview?${query}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain(
      '<div data-svc-calculator="estate-tax"></div><div data-svc-calculator="rmd"></div>',
    );
    expect(html).toMatch(
      /data-key="svc_pk_preview" data-api="[^"]+" data-theme="dark" data-accent="#7a1f3d" data-state="NY" async>/,
    );
    expect(html).not.toContain('data-radius');
    expect(html).not.toContain('data-font');
    // A dark theme is previewed on a dark page; any other on the plain one.
    expect(html).toContain('<body class="dark">');
    const light = await (
      await t.get('/portal/preview?calculators=rmd&key=svc_pk_preview&theme=light')
    ).text();
    expect(light).toContain('<body><div data-svc-calculator="rmd">');
  });

  it.each(['estate-tax,<script>', 'a,b,c,d,e,f'])('refuses calculators=%s', async (calculators) => {
    const res = await t.get(`/portal/preview?${new URLSearchParams({ calculators, key: 'svc_pk_preview' })}`);
    expect(res.status).toBe(400);
  });
});
