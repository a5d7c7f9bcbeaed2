import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { calculatorJsonSchema, calculators } from '../../calculators/index.ts';
import { stateName, US_STATES } from '../../calculators/limits.ts';
import { DEFAULT_ACCENT, HEX_COLOR } from '../../protocol/accent.ts';
import { repoRoot } from '../infra/repo-root.ts';
import { escapeHtml } from '../lib/html.ts';

/**
 * The MCP App of `estimate` (extension `io.modelcontextprotocol/ui`, specification 2026-01-26),
 * declared by hand: the extension's server helpers register through the v1 SDK's McpServer, and
 * all they add is the two metadata keys below.
 * - the tool names its view in `_meta.ui.resourceUri`;
 * - the view is a `ui://` resource of MIME type `text/html;profile=mcp-app`, its content-security
 *   policy in the resource's `_meta.ui.csp`: no `connectDomains` (the app reaches no network; it
 *   recomputes by asking the host to call `estimate`) and no `resourceDomains` (script and style
 *   are inline).
 */
export const APP_EXTENSION = 'io.modelcontextprotocol/ui';
export const APP_URI = 'ui://svc/estimate';
export const APP_MIME = 'text/html;profile=mcp-app';
export const APP_META = {
  ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true },
} as const;

/** The calculators' inputs, described once: `svc://calculators` (and the app's form). */
export const CALCULATORS_URI = 'svc://calculators';

type Json = Record<string, unknown>;

/** A calculator's input schema as a client reads it: JSON Schema without `$schema` and the date pattern (format says it). */
function fieldsOf(slug: string): Json {
  const { $schema: _s, ...schema } = calculatorJsonSchema(slug);
  const properties = Object.fromEntries(
    Object.entries((schema.properties ?? {}) as Record<string, Json>).map(([key, value]) => {
      const { pattern: _p, ...rest } = value;
      return [key, rest];
    }),
  );
  return { ...schema, properties };
}

export function calculatorCatalogue() {
  return {
    calculators: calculators.map((c) => ({
      slug: c.slug,
      name: c.name,
      description: c.description,
      inputSchema: fieldsOf(c.slug),
    })),
  };
}

/** JSON that can sit inside a `<script>` element: no `<`, `>` or `&` survives to close it. */
const scriptSafeJson = (value: unknown) =>
  JSON.stringify(value).replace(
    /[<>&\u2028\u2029]/g,
    (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
  );

/** The built app (`npm run build` writes it); read once it exists. */
let template: string | undefined;
export function appTemplate(file = join(repoRoot(), 'dist', 'mcp-app', 'app.html')): string | undefined {
  if (template !== undefined) return template;
  try {
    template = readFileSync(file, 'utf8');
  } catch {
    return undefined;
  }
  return template;
}

/**
 * The app's HTML for one firm: its name (HTML-escaped in the title, script-safe JSON for the page)
 * and its accent (a hex colour or the default; anything else is dropped), and every calculator's
 * fields. No credential, no URL of the API: the host makes every call.
 */
export function appHtml(template: string, firm: { name: string; accent: string | null }): string {
  const accent = firm.accent && HEX_COLOR.test(firm.accent) ? firm.accent : DEFAULT_ACCENT;
  const data = {
    firm: { name: firm.name, accent },
    calculators: calculatorCatalogue().calculators.map(({ description: _d, ...c }) => c),
    // A state is shown by its name ("Washington") and sent as its code.
    states: Object.fromEntries(US_STATES.map((code) => [code, stateName(code)])),
  };
  return template
    .replace('__SVC_TITLE__', () => escapeHtml(`${firm.name} · estimate`))
    .replace('"__SVC_DATA__"', () => scriptSafeJson(data));
}
