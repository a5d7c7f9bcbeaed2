import { createRoute, z } from '@hono/zod-openapi';
import { calculatorJsonSchema, calculators } from '../../calculators/index.ts';
import type { LicensingDeps } from '../domain/deps.ts';
import { estimate } from '../domain/results/calculations.ts';
import { resultReport } from '../domain/results/reports.ts';
import { requireCredential } from '../http/auth.ts';
import { createRouter } from '../http/openapi-router.ts';
import { bearerSecurity, errorResponses, Iso, jsonBody, jsonResponse, PageField } from './schemas.ts';

const tags = ['Calculators'];

const list = createRoute({
  method: 'get',
  path: '/api/calculators',
  tags,
  summary: 'The calculators, with their input schemas as JSON Schema',
  responses: {
    200: jsonResponse(
      'Calculators',
      z.object({
        data: z.array(
          z.object({
            slug: z.string(),
            name: z.string(),
            description: z.string(),
            disclaimer: z.string(),
            ruleSet: z.record(z.string(), z.unknown()),
            inputSchema: z.record(z.string(), z.unknown()),
            outputLabels: z.record(z.string(), z.string()),
          }),
        ),
      }),
    ),
  },
});

const ResultSchema = z
  .object({
    resultId: z.string(),
    calculator: z.string(),
    state: z.string().nullable(),
    inputs: z.record(z.string(), z.unknown()),
    outputs: z.record(z.string(), z.unknown()),
    lineItems: z.array(z.object({ label: z.string(), amount: z.number(), kind: z.string().optional() })),
    notes: z.array(z.string()),
    ruleSet: z.record(z.string(), z.unknown()),
    disclaimer: z.string(),
    createdAt: Iso,
  })
  .openapi('CalculationResult');

const calc = createRoute({
  method: 'post',
  path: '/api/calc/estimate',
  tags,
  summary: 'Compute and store an authoritative result (embed token or access token)',
  security: bearerSecurity,
  request: jsonBody(
    z.object({
      calculator: z.string().min(1).max(64).openapi({ example: 'estate-tax' }),
      state: z.string().length(2).optional().openapi({ example: 'NY' }),
      inputs: z.record(z.string(), z.unknown()).openapi({ example: { estateValue: 8_000_000 } }),
      page: PageField,
    }),
  ),
  responses: { 200: jsonResponse('The result', ResultSchema), ...errorResponses(400, 401) },
});

const pdf = createRoute({
  method: 'post',
  path: '/api/pdf/generate',
  tags,
  summary: 'A PDF report of a stored result',
  security: bearerSecurity,
  request: jsonBody(z.object({ resultId: z.string().min(1).max(64) })),
  responses: {
    200: {
      description: 'The report',
      content: { 'application/pdf': { schema: z.string().openapi({ format: 'binary' }) } },
    },
    ...errorResponses(400, 401, 404),
  },
});

export function createCalculationRoutes(deps: LicensingDeps) {
  const router = createRouter();
  router.openapi(list, (c) => {
    c.header('Cache-Control', 'public, max-age=300');
    const data = calculators.map((calculator) => ({
      slug: calculator.slug,
      name: calculator.name,
      description: calculator.description,
      disclaimer: calculator.disclaimer,
      ruleSet: { ...calculator.ruleSet },
      inputSchema: calculatorJsonSchema(calculator.slug),
      outputLabels: calculator.outputLabels,
    }));
    return c.json({ data }, 200);
  });
  router.use(calc.path, requireCredential(deps, ['embed', 'access']));
  router.openapi(calc, async (c) => {
    const principal = c.get('principal');
    if (principal?.kind !== 'embed' && principal?.kind !== 'access') throw new Error('unreachable');
    return c.json(
      (await estimate(deps, principal, c.req.valid('json'))) as z.infer<typeof ResultSchema>,
      200,
    );
  });
  router.use(pdf.path, requireCredential(deps, ['embed', 'access', 'apikey']));
  router.openapi(pdf, async (c) => {
    const bytes = await resultReport(deps, c.get('principal')!, c.req.valid('json').resultId);
    return c.body(new Uint8Array(bytes), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="svc-report-${c.req.valid('json').resultId}.pdf"`,
      'Cache-Control': 'private, no-store',
    }) as never;
  });
  return router;
}
