import { describe, expect, it } from 'vitest';
import { snippetOf, stylesheetOf } from '../../portal/snippet.ts';
import { escapeHtml } from '../lib/html.ts';
import { createExamplesApp, EXAMPLE_PAGES } from './examples-host.ts';

describe('examples host', () => {
  const app = createExamplesApp({
    apiUrl: 'http://api.test:8787',
    embedUrl: 'http://embed.test:8788',
    demoPublishableKey: 'svc_pk_DEMO',
  });

  it.each(EXAMPLE_PAGES)('serves %s with every placeholder filled', async (page) => {
    const res = await app.request(`/${page}`);
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).toContain('src="http://embed.test:8788/loader.js"');
    expect(html).not.toContain('{{');
    expect(html).not.toMatch(/<script>|<style>|\sstyle="|\son[a-z]+="/);
  });

  it('prints the snippet the portal writes, room for the calculator included, and links every example', async () => {
    const html = await (await app.request('/')).text();
    const printed = snippetOf('http://embed.test:8788', 'svc_pk_DEMO', ['estate-tax']);
    expect(printed).toMatch(/style="min-height:\d+px"/);
    expect(html).toContain(`<pre><code>${escapeHtml(printed)}</code></pre>`);
    for (const page of EXAMPLE_PAGES.filter((p) => p !== 'index.html'))
      expect(html).toContain(`href="/${page}"`);
  });

  it('keeps each example calculator’s room in the stylesheet, as the portal gives it to strict-CSP sites', async () => {
    const css = (await (await app.request('/examples.css')).text()).replace(/\s+/g, ' ');
    for (const rule of stylesheetOf(['estate-tax', 'rmd', 'probate-fees']).split('\n'))
      expect(css).toContain(rule);
  });

  it('uses the demo key on the pages that should work, and a wrong one on wrong-key.html', async () => {
    expect(await (await app.request('/')).text()).toContain('data-key="svc_pk_DEMO"');
    expect(await (await app.request('/wrong-key.html')).text()).not.toContain('svc_pk_DEMO');
  });

  it('serves the pages under a strict CSP that allows just the embed host and the API', async () => {
    const csp = (await app.request('/events.html')).headers.get('content-security-policy')!;
    expect(csp).toContain("script-src 'self' http://embed.test:8788");
    expect(csp).toContain('frame-src http://embed.test:8788');
    expect(csp).toContain('connect-src http://api.test:8787');
    expect(csp).toContain("style-src 'self'");
    expect(csp).not.toContain('unsafe');
  });

  it.each([
    ['/examples.js', 'text/javascript'],
    ['/examples.css', 'text/css'],
  ])('serves %s', async (path, type) => {
    const res = await app.request(path);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain(type);
  });

  it.each(['/missing.html', '/constructor', '/..%2fpackage.json', '/a/b.html'])(
    'answers %s with a JSON 404',
    async (path) => {
      const res = await app.request(path);
      expect(res.status).toBe(404);
      expect((await res.json()).error).toMatchObject({ code: 'NOT_FOUND', status: 404 });
    },
  );

  it('escapes what it writes into the pages', async () => {
    const hostile = createExamplesApp({
      apiUrl: 'http://a.test',
      embedUrl: 'http://e.test',
      demoPublishableKey: '"><x',
    });
    expect(await (await hostile.request('/')).text()).toContain('data-key="&quot;&gt;&lt;x"');
  });
});
