import { createRoute, z } from '@hono/zod-openapi';
import { calculatorJsonSchema, calculators } from '../../../calculators/index.ts';
import { CalculationResultSchema } from '../../contracts/result.ts';
import type { LicensingDeps } from '../../domain/deps.ts';
import { estimate } from '../../domain/results/calculations.ts';
import { resultReport } from '../../domain/results/reports.ts';
import { requireCredential } from '../../http/auth/auth.ts';
import { createRouter } from '../../http/openapi-router.ts';
import {
  bearerSecurity,
  errorResponses,
  Iso,
  jsonBody,
  jsonResponse,
  LanguageField,
  PageField,
} from '../schemas.ts';

const tags = ['Calculators'];

const list = createRoute({
  method: 'get',
  path: '/api/calculators',
  tags,
  summary: 'The calculators, with their input schemas as JSON Schema',
  description:
    'Every calculator the widgets offer: its slug, name, disclaimer, the rule set it applies (tax year, sources) and the JSON Schema of its inputs, so a client can build or check a form. No credential needed.',
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

const calc = createRoute({
  method: 'post',
  path: '/api/calc/estimate',
  tags,
  summary: 'Compute and store an authoritative result (embed token or access token)',
  description:
    'Runs the calculator on the server with the inputs given and stores the result; the answer has the figures, line items, notes, the rule set and a `resultId` that a lead or a PDF report can name. Inputs are checked against the calculator’s schema (400 `INVALID_REQUEST` with the fields at fault).',
  security: bearerSecurity,
  request: jsonBody(
    z.object({
      calculator: z.string().min(1).max(64).openapi({ example: 'estate-tax' }),
      state: z.string().length(2).optional().openapi({ example: 'NY' }),
      inputs: z.record(z.string(), z.unknown()).openapi({ example: { estateValue: 8_000_000 } }),
      page: PageField,
      language: LanguageField,
    }),
    {
      calculator: 'estate-tax',
      state: 'NY',
      inputs: { estateValue: 8_000_000 },
      page: 'https://smithlaw.com/estate-planning',
    },
  ),
  responses: { 200: jsonResponse('The result', CalculationResultSchema), ...errorResponses(400, 401) },
});

const pdf = createRoute({
  method: 'post',
  path: '/api/pdf/generate',
  tags,
  summary: 'A PDF report of a stored result',
  description:
    'The printable report of a result this license (or this firm, with an API key) computed: the figures, line items, notes, sources and the firm’s disclaimer. Another firm’s result is 404.',
  security: bearerSecurity,
  request: jsonBody(z.object({ resultId: z.string().min(1).max(64) }), { resultId: 'res_01J9ZK6V3Q8X' }),
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
      (await estimate(deps, principal, c.req.valid('json'))) as z.infer<typeof CalculationResultSchema>,
      200,
    );
  });
  router.use(pdf.path, requireCredential(deps, ['embed', 'access', 'apikey']));
  router.openapi(pdf, async (c) => {
    const { pdf, fileName } = await resultReport(deps, c.get('principal')!, c.req.valid('json').resultId);
    return c.body(new Uint8Array(pdf), 200, {
      'Content-Type': 'application/pdf',
      'Content-Disposition': `inline; filename="${fileName}"`,
      'Cache-Control': 'private, no-store',
    }) as never;
  });
  return router;
}
