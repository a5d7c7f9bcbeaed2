import { z } from '@hono/zod-openapi';
import { Iso } from './common.ts';

/**
 * A calculation as `POST /v1/api/calc/estimate` answers it and a `result.created` webhook sends it
 * (`CalculationResult` in the API document), declared once; the domain's `ResultView` is its
 * inferred type. A lead carries the shorter `LeadResult` (contracts/lead.ts).
 */
export const CalculationResultSchema = z
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
    language: z.string().openapi({ description: 'The language the widget was shown in: `en` or `es`' }),
  })
  .openapi('CalculationResult');
export type ResultView = z.infer<typeof CalculationResultSchema>;
