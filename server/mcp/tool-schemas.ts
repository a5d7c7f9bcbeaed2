import { z } from 'zod';
import { calculators } from '../../calculators/index.ts';
import { McpLeadSchema } from '../contracts/lead.ts';

/**
 * Input and output schemas of the three MCP tools. The SDK turns them into the JSON Schemas of
 * `tools/list`, validates arguments before a handler runs (a failure is an `isError` result whose
 * text names the field), and validates `structuredContent` before it leaves.
 */
const SLUGS = calculators.map((c) => c.slug) as [string, ...string[]];

/** additionalProperties: false, with a message that lists what is allowed. */
function strict<Shape extends z.ZodRawShape>(shape: Shape) {
  const allowed = Object.keys(shape).join(', ') || 'none';
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown argument(s) ${issue.keys.map((k) => `"${k}"`).join(', ')}; allowed: ${allowed}.`
        : undefined,
  });
}

const dateBound = (what: string) =>
  z
    .string()
    .max(40)
    .optional()
    .describe(`${what}: ISO date (2026-03-01) or date-time (2026-03-01T09:30:00Z), UTC.`);

const resultFilters = {
  calculatorSlug: z.enum(SLUGS).optional().describe('Only this calculator.'),
  state: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'state must be a two-letter US state code such as NY or CA')
    .optional()
    .describe('Two-letter US state code, e.g. NY.'),
  createdFrom: dateBound('Created at or after (inclusive)'),
  createdTo: dateBound('Created before (exclusive)'),
  includeTest: z
    .boolean()
    .default(false)
    .describe('Include test-mode data from development hosts (default false).'),
  limit: z.number().int().min(1).max(100).default(25).describe('Rows per page, 1–100 (default 25).'),
  cursor: z
    .string()
    .max(1000)
    .optional()
    .describe('nextCursor of the previous page; repeat the same filters with it.'),
};

const Status = z.enum(['new', 'contacted', 'converted', 'lost']);

export const getLeadsInput = strict({
  status: Status.optional().describe('Only leads in this status.'),
  ...resultFilters,
  // Issue 40: search, sort and a month, as REST and the portal take them.
  q: z.string().max(100).optional().describe('Start of a name or e-mail address, any case.'),
  month: z
    .string()
    .max(7)
    .optional()
    .describe('A calendar month, YYYY-MM (UTC); instead of createdFrom/createdTo.'),
  sort: z
    .enum(['received', 'value', 'priority'])
    .optional()
    .describe('received: newest first (default); value or priority: highest first.'),
});

export const getResultsInput = strict(resultFilters);

export const getStatsInput = strict({
  windowDays: z
    .number()
    .int()
    .min(1)
    .max(365)
    .default(30)
    .describe('Length of the window ending now, in days, 1–365 (default 30).'),
});

const Metadata = z
  .record(z.string(), z.unknown())
  .describe('The calculation’s inputs and outputs in one object, e.g. estateValue, federalTax, stateTax.');
const Iso = z.string().describe('ISO 8601 date-time, UTC.');

const LinkedResult = z.object({
  id: z.string(),
  calculatorSlug: z.string(),
  state: z.string().nullable(),
  metadata: Metadata,
});

export const getLeadsOutput = z.object({
  leads: z.array(McpLeadSchema),
  totalMatching: z.number().int().describe('Exact up to 1000; then 1000 with totalMatchingCapped.'),
  totalMatchingCapped: z.boolean(),
  nextCursor: z.string().optional().describe('Pass as cursor (same filters) for the next page.'),
  appliedFilters: z.record(z.string(), z.unknown()),
  asOf: Iso.describe('Rows created after this instant are not part of this listing.'),
});

const Result = LinkedResult.extend({ createdAt: Iso });

export const getResultsOutput = z.object({
  results: z.array(Result),
  totalMatching: z.number().int(),
  totalMatchingCapped: z.boolean(),
  nextCursor: z.string().optional(),
  asOf: Iso,
});

export const getStatsOutput = z.object({
  windowDays: z.number().int(),
  windowStart: Iso,
  windowEnd: Iso,
  totalLeadsAllTime: z.number().int(),
  leadsInWindow: z.number().int(),
  byStatus: z.object({
    new: z.number().int(),
    contacted: z.number().int(),
    converted: z.number().int(),
    lost: z.number().int(),
  }),
  topCalculators: z.array(z.object({ slug: z.string(), name: z.string(), count: z.number().int() })),
});
