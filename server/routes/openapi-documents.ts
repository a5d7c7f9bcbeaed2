import type { OpenAPIHono } from '@hono/zod-openapi';
import type { AppEnv } from '../http/app-env.ts';

export type ApiDocumentName = 'public' | 'portal' | 'admin';

export interface ApiDocument {
  name: ApiDocumentName;
  /** Where it is served; the public one keeps the address the single document had. */
  path: string;
  slug: string;
  title: string;
  description: string;
}

/**
 * Three readers, three documents: a firm's developer (the public API), the portal app's own JSON
 * API, and the operator's admin API. One route table serves them all; a path's prefix says which
 * document lists it, so a new route lands in the right one without being told.
 */
export const API_DOCUMENTS: readonly ApiDocument[] = [
  {
    name: 'public',
    path: '/v1/openapi.json',
    slug: 'public',
    title: 'svc API',
    description:
      'What a firm’s developer uses: licensing and site activation, embed sessions, calculations, PDF reports, billing, leads and results. The MCP server for AI assistants is at `/v1/mcp` (Streamable HTTP, with a personal API key).',
  },
  {
    name: 'portal',
    path: '/v1/openapi/portal.json',
    slug: 'portal',
    title: 'svc portal API',
    description:
      'The JSON API behind the firm portal: sign-in, the session cookie and its CSRF token, and every screen of the portal. Not a public contract: it changes with the portal.',
  },
  {
    name: 'admin',
    path: '/v1/openapi/admin.json',
    slug: 'admin',
    title: 'svc admin API',
    description:
      'The operator’s API under `/admin/v1`, behind the instance admin token: what `npm run svc` calls.',
  },
];

function documentOf(path: string): ApiDocumentName {
  if (path.startsWith('/admin/')) return 'admin';
  if (path.startsWith('/v1/portal/')) return 'portal';
  return 'public';
}

type Json = Record<string, unknown>;

/**
 * Serves the three documents from the app's one registry. Built per request, as `doc31` does:
 * routers mounted after `createApp` (the admin API) must appear too.
 */
export function registerApiDocuments(app: OpenAPIHono<AppEnv>, serverUrl: string): void {
  for (const doc of API_DOCUMENTS) {
    app.get(doc.path, (c) => {
      const whole = app.getOpenAPI31Document({
        openapi: '3.1.0',
        info: { title: doc.title, version: '1.0.0', description: doc.description },
        servers: [{ url: serverUrl }],
      }) as unknown as Json;
      return c.json(pickDocument(whole, doc.name));
    });
  }
}

/** The operations of one document, with only the components they reach. */
function pickDocument(whole: Json, name: ApiDocumentName): Json {
  const paths = Object.fromEntries(
    Object.entries((whole.paths ?? {}) as Json).filter(([path]) => documentOf(path) === name),
  );
  const components = (whole.components ?? {}) as Record<string, Json>;
  const used = reachedComponents(paths, components);
  const picked: Record<string, Json> = {};
  for (const [kind, entries] of Object.entries(components)) {
    const kept = Object.entries(entries).filter(([key]) => used.has(`${kind}/${key}`));
    if (kept.length > 0) picked[kind] = Object.fromEntries(kept);
  }
  return { ...whole, paths, components: picked };
}

/** `kind/name` of every component a `$ref` or a security requirement reaches, transitively. */
function reachedComponents(root: unknown, components: Record<string, Json>): Set<string> {
  const used = new Set<string>();
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const item of node) visit(item);
      return;
    }
    if (!node || typeof node !== 'object') return;
    for (const [key, value] of Object.entries(node)) {
      if (key === '$ref' && typeof value === 'string' && value.startsWith('#/components/')) {
        const id = value.slice('#/components/'.length);
        if (used.has(id)) continue;
        used.add(id);
        const [kind, name] = id.split('/') as [string, string];
        visit(components[kind]?.[name]);
      } else if (key === 'security' && Array.isArray(value)) {
        for (const requirement of value)
          for (const scheme of Object.keys(requirement)) used.add(`securitySchemes/${scheme}`);
      } else visit(value);
    }
  };
  visit(root);
  return used;
}
