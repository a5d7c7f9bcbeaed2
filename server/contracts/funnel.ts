import { z } from '@hono/zod-openapi';

const n = z.number().int().min(0);

/** One step of the funnel, as every surface (REST, MCP, portal) reports it. */
const FunnelStagesSchema = z
  .object({
    views: n.describe('Widgets that became ready with a live embed session.'),
    calculations: n.describe('Calculations made.'),
    leads: n.describe('Leads taken (live: not held, not test).'),
    heldLeads: n.describe('Leads held for spam signals (counted apart from `leads`).'),
    contacted: n.describe('Of the leads created in the period: those the firm has moved past `new`.'),
    converted: n.describe('Of the leads created in the period: those now `converted`.'),
    lost: n.describe('Of the leads created in the period: those now `lost`.'),
  })
  .openapi('FunnelStages');

/** Rates of a funnel row, 0–1, null when the step before counted nothing. */
const Rates = z
  .object({
    calculationRate: z.number().nullable().describe('calculations ÷ views'),
    leadRate: z.number().nullable().describe('leads ÷ calculations'),
    conversionRate: z.number().nullable().describe('converted ÷ leads'),
  })
  .openapi('FunnelRates');

export const FunnelSchema = z
  .object({
    from: z.string().describe('First UTC day counted (YYYY-MM-DD).'),
    to: z.string().describe('Last UTC day counted (YYYY-MM-DD), inclusive.'),
    totals: FunnelStagesSchema.extend(Rates.shape),
    byCalculator: z.array(
      FunnelStagesSchema.extend(Rates.shape).extend({ calculator: z.string(), name: z.string() }),
    ),
    byPage: z
      .array(FunnelStagesSchema.extend(Rates.shape).extend({ page: z.string() }))
      .describe(
        'Per page (origin + path; segments that look like e-mail addresses, long numbers or tokens masked). `(other pages)` holds a day’s pages past the first 200 per license; `` is traffic that reported no page.',
      ),
    test: FunnelStagesSchema.pick({ views: true, calculations: true, leads: true }).describe(
      'Test traffic (development hosts, portal preview), counted apart and left out of everything above.',
    ),
  })
  .openapi('Funnel');

export type Funnel = z.infer<typeof FunnelSchema>;
export type FunnelStages = z.infer<typeof FunnelStagesSchema>;
