import { z } from '@hono/zod-openapi';
import { Iso } from './common.ts';
import { LeadSchema, LeadStatusSchema } from './lead.ts';
import { CalculationResultSchema } from './result.ts';

/**
 * What a webhook endpoint receives, declared once: `{ type, timestamp, data }`, where `data` is the
 * record as the REST API shows it (the lead, the calculation) or, for a digest, the digest. The
 * outbox writes these bodies and the test button sends the same shapes; the domain's `WebhookBody`
 * is the inferred type, so an event whose data strays from its contract fails to compile.
 */

const event = <Type extends string, Data extends z.ZodType>(type: Type, data: Data) =>
  z.object({ type: z.literal(type), timestamp: Iso, data });

/** A calculation as REST answers it; `test: true` marks the made-up one of the test button. */
const ResultEventData = CalculationResultSchema.extend({
  test: z.literal(true).optional().openapi({ description: 'Set on a test event only' }),
});

const LeadsDigestSchema = z
  .object({
    digestId: z.string(),
    licenseId: z.string(),
    reason: z.literal('past_daily_figure'),
    dailyFigure: z.number().int(),
    from: Iso,
    to: Iso,
    count: z.number().int(),
    leadIds: z.array(z.string()).openapi({ description: 'The first leads of the digest, by id' }),
    portalUrl: z.string().optional(),
    note: z.string(),
  })
  .openapi('LeadsDigest');

/** A change to the law under the calculators, as the rules changelog records it (`rules.updated`). */
const RuleChangeSchema = z
  .object({
    id: z.string().openapi({ example: 'estate-tax/2026-11-28/wa-2027-exclusion' }),
    date: z.string().openapi({ description: 'The day the change was recorded', example: '2026-11-28' }),
    kind: z.enum(['added', 'confirmed', 'corrected']),
    figure: z.string().openapi({ description: 'The figure in words, with the dates of death it speaks for' }),
    before: z.string().nullable(),
    after: z.string(),
    status: z.enum(['primary', 'secondary', 'missing']),
    source: z.object({ title: z.string(), url: z.string().optional() }),
    calculators: z.array(z.string()),
    states: z.array(z.string()).openapi({ description: 'Empty: every state (a federal figure)' }),
    summary: z.string(),
    test: z.literal(true).optional().openapi({ description: 'Set on a test event only' }),
  })
  .openapi('RuleChange');

export const WebhookEventSchema = z.discriminatedUnion('type', [
  event('lead.created', LeadSchema),
  event(
    'lead.updated',
    LeadSchema.extend({
      previousStatus: LeadStatusSchema.optional().openapi({
        description: 'The status before this change (present when the status changed)',
      }),
    }),
  ),
  event('result.created', ResultEventData),
  event('leads.digest', LeadsDigestSchema),
  event('rules.updated', RuleChangeSchema),
]);
export type WebhookBody = z.infer<typeof WebhookEventSchema>;
