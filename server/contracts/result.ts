import { z } from '@hono/zod-openapi';
import { TEXT_CODES } from '../../calculators/texts.ts';
import { Iso } from './common.ts';

/**
 * A text a calculator wrote (a line item, a note, the disclaimer, the headline) by its stable code,
 * declared with its English in `calculators/texts.ts`; the English stays beside it as it always was.
 */
export const TextRefSchema = z
  .object({
    code: z.enum(TEXT_CODES).openapi({ example: 'estate-tax.note.noStateTax' }),
    params: z
      .record(z.string(), z.string())
      .optional()
      .openapi({ description: 'The values the English puts in, as written there', example: { state: 'FL' } }),
  })
  .openapi('TextRef', {
    description:
      'A stable code for a text a calculator wrote, with the values put into it: say it in your own words or language by the code; the English beside it may be reworded, the code never changes meaning',
  });

const LineItemSchema = z.object({
  label: z.string(),
  amount: z.number(),
  kind: z.string().optional(),
  code: z
    .enum(TEXT_CODES)
    .optional()
    .openapi({ description: 'The label’s stable code (absent on a result stored before codes)' }),
  params: z.record(z.string(), z.string()).optional(),
});

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
    lineItems: z.array(LineItemSchema),
    notes: z.array(z.string()),
    noteCodes: z.array(TextRefSchema.nullable()).openapi({
      description: 'Each note’s stable code, in the order of `notes` (null for a note with none)',
    }),
    ruleSet: z.record(z.string(), z.unknown()),
    disclaimer: z.string(),
    disclaimerCode: z.enum(TEXT_CODES).nullable().openapi({ description: 'The disclaimer’s stable code' }),
    createdAt: Iso,
    language: z.string().openapi({ description: 'The language the widget was shown in: `en` or `es`' }),
  })
  .openapi('CalculationResult');
export type ResultView = z.infer<typeof CalculationResultSchema>;
