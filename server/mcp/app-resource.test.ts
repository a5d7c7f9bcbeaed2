import { describe, expect, it } from 'vitest';
import { calculators } from '../../calculators/index.ts';
import { DEFAULT_ACCENT } from '../../protocol/accent.ts';
import { appHtml, calculatorCatalogue } from './app-resource.ts';

/** The app's template as the build leaves it: the two places the server fills in. */
const TEMPLATE =
  '<!doctype html><html><head><title>__SVC_TITLE__</title></head><body>' +
  '<script type="application/json" id="svc-data">"__SVC_DATA__"</script><script type="module">app()</script></body></html>';

const dataOf = (html: string) =>
  JSON.parse(/<script type="application\/json" id="svc-data">([^<]*)<\/script>/.exec(html)![1]!) as {
    firm: { name: string; accent: string };
    calculators: { slug: string; inputSchema: { properties: Record<string, unknown> } }[];
  };

describe("the MCP App's HTML for one firm", () => {
  it('carries a hostile firm name only escaped: HTML text in the title, script-safe JSON in the data', () => {
    const name = '</script><script>alert(1)</script> & "Partners" $& $1';
    const html = appHtml(TEMPLATE, { name, accent: '#1a6b4f' });
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain(
      '<title>&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt; &amp; &quot;Partners&quot; $&amp; $1 · estimate</title>',
    );
    // Exactly the template's two scripts, and the name read back as it was typed.
    expect(html.match(/<script/g)).toHaveLength(2);
    expect(dataOf(html).firm).toEqual({ name, accent: '#1a6b4f' });
  });

  it('takes the accent only as a hex colour, else the default', () => {
    for (const accent of ['red;}</style><script>x()</script>', 'url(https://x.test/a)', '#12345', null])
      expect(dataOf(appHtml(TEMPLATE, { name: 'Firm', accent })).firm.accent).toBe(DEFAULT_ACCENT);
    expect(dataOf(appHtml(TEMPLATE, { name: 'Firm', accent: '#ABC' })).firm.accent).toBe('#ABC');
  });

  it("holds every calculator's fields and no credential or address", () => {
    const html = appHtml(TEMPLATE, { name: 'Firm', accent: null });
    const data = dataOf(html);
    expect(data.calculators.map((c) => c.slug)).toEqual(calculators.map((c) => c.slug));
    expect(Object.keys(data.calculators[0]!.inputSchema.properties)).toContain('estateValue');
    expect(html).not.toMatch(/https?:\/\/|svc_pat_|Bearer/);
    // svc://calculators describes the same fields, with each calculator's description.
    expect(calculatorCatalogue().calculators.map((c) => c.inputSchema)).toEqual(
      data.calculators.map((c) => c.inputSchema),
    );
  });
});
