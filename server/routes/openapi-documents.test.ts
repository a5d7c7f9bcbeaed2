import { Validator } from '@seriousme/openapi-schema-validator';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHotBackup } from '../domain/backup/hot-backup.ts';
import { createTestContext, type TestContext } from '../test-support/services.ts';
import { createBackupRoutes } from './admin/backup.ts';
import { createAdminRoutes } from './admin/index.ts';
import { createAdminUserRoutes } from './admin/users.ts';
import { API_DOCUMENTS, type ApiDocumentName } from './openapi-documents.ts';
import operationIds from './operation-ids.json' with { type: 'json' };

type Operation = { summary?: string; description?: string; requestBody?: { content: Record<string, Media> } };
type Media = { example?: unknown; examples?: object; schema?: { example?: unknown; $ref?: string } };
type Doc = {
  paths: Record<string, Record<string, Operation>>;
  components: Record<string, Record<string, unknown>>;
};

let t: TestContext;
const docs = {} as Record<ApiDocumentName, Doc>;
beforeAll(async () => {
  t = await createTestContext();
  // As servers.ts mounts them: the admin API rides on the API app.
  const token = 'a'.repeat(43);
  t.app.route('/', createAdminRoutes(t.services, token));
  t.app.route('/', createAdminUserRoutes(t.services, token));
  t.app.route('/', createBackupRoutes(createHotBackup(t.services.database), token));
  for (const doc of API_DOCUMENTS) docs[doc.name] = await (await t.get(doc.path)).json();
});
afterAll(() => t.close());

const operationsOf = (doc: Doc) =>
  Object.entries(doc.paths).flatMap(([path, ops]) =>
    Object.entries(ops).map(([method, op]) => ({ id: `${method.toUpperCase()} ${path}`, op })),
  );
const idsOf = (doc: Doc) => operationsOf(doc).map((o) => o.id);

describe('the three API documents', () => {
  it.each(API_DOCUMENTS.map((d) => [d.name, d.path]))(
    '%s (%s) is a valid OpenAPI 3.1 document',
    async (name) => {
      const result = await new Validator().validate(docs[name as ApiDocumentName] as never);
      expect(result.errors ?? []).toEqual([]);
      expect(result.valid).toBe(true);
    },
  );

  it('together list exactly the operations of the single document they replace', () => {
    // operation-ids.json was captured from /v1/openapi.json before the split (admin API mounted).
    const union = API_DOCUMENTS.flatMap((d) => idsOf(docs[d.name])).sort();
    expect(union).toEqual([...operationIds].sort());
    expect(new Set(union).size).toBe(union.length);
  });

  it('keep portal and admin operations out of the public document, and each in its own', () => {
    expect(idsOf(docs.public).filter((id) => /\s\/(admin|v1\/portal)\//.test(id))).toEqual([]);
    expect(idsOf(docs.portal).every((id) => id.includes(' /v1/portal/'))).toBe(true);
    expect(idsOf(docs.admin).every((id) => id.includes(' /admin/'))).toBe(true);
    expect(idsOf(docs.portal).length).toBeGreaterThan(40);
    expect(idsOf(docs.admin).length).toBeGreaterThan(20);
  });

  it('carry only the components their operations reach', () => {
    expect(Object.keys(docs.public.components.securitySchemes ?? {})).toEqual(['bearerAuth']);
    expect(Object.keys(docs.admin.components.securitySchemes ?? {})).toEqual(['adminToken']);
    expect(Object.keys(docs.portal.components.securitySchemes ?? {})).toContain('portalSession');
    expect(Object.keys(docs.public.components.schemas ?? {})).toContain('Lead');
    expect(JSON.stringify(docs.public)).not.toContain('#/components/schemas/Portal');
  });

  it('give every public operation a summary, a description and, with a body, an example', () => {
    const schemas = docs.public.components.schemas ?? {};
    const missing = operationsOf(docs.public).flatMap(({ id, op }) => {
      const gaps: string[] = [];
      if (!op.summary?.trim()) gaps.push('summary');
      if (!op.description?.trim()) gaps.push('description');
      for (const [type, media] of Object.entries(op.requestBody?.content ?? {})) {
        const named = media.schema?.$ref
          ? (schemas[media.schema.$ref.split('/').pop()!] as Media['schema'])
          : undefined;
        const example = media.example ?? media.examples ?? media.schema?.example ?? named?.example;
        if (example === undefined) gaps.push(`example (${type})`);
      }
      return gaps.map((gap) => `${id}: ${gap}`);
    });
    expect(missing).toEqual([]);
  });
});
