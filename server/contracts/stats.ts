import { z } from '@hono/zod-openapi';
import { FunnelSchema } from './funnel.ts';
import { LeadStatusSchema } from './lead.ts';

/**
 * The firm's lead statistics, declared once: what MCP's `get_directory_stats` answers. The domain's
 * `DirectoryStats` is the inferred type of the counts (`directoryStats`); the tool adds the month
 * it was asked for and the funnel over the same whole UTC days (contracts/funnel.ts).
 */
const DirectoryStatsSchema = z.object({
  windowDays: z.number().int(),
  windowStart: z.string(),
  windowEnd: z.string(),
  totalLeadsAllTime: z.number().int(),
  leadsInWindow: z.number().int(),
  byStatus: z.record(LeadStatusSchema, z.number().int()),
  topCalculators: z.array(z.object({ slug: z.string(), name: z.string(), count: z.number().int() })),
});
export type DirectoryStats = z.infer<typeof DirectoryStatsSchema>;

/** `get_directory_stats`: the counts, the month when one was asked for, and the funnel. */
export const DirectoryStatsAnswerSchema = DirectoryStatsSchema.extend({
  month: z.string().optional(),
  funnel: FunnelSchema,
});
