import { z } from 'zod';
import { calculators } from '../../calculators/index.ts';
import { LeadStatusSchema, LostReasonSchema, McpLeadSchema, McpResultSchema } from '../contracts/lead.ts';
import { DirectoryStatsAnswerSchema } from '../contracts/stats.ts';

/**
 * Input and output schemas of the MCP tools. The SDK turns them into the JSON Schemas of
 * `tools/list`, validates arguments before a handler runs (a failure is an `isError` result whose
 * text names the field), and validates `structuredContent` before it leaves. Every word here is
 * paid for by the model on every `tools/list` (budget: 2,200 o200k tokens for all tools,
 * server/mcp/mcp-budget.test.ts), so descriptions say only what a model could not guess.
 */
const SLUGS = calculators.map((c) => c.slug) as [string, ...string[]];

type Json = Record<string, unknown>;
const SAFE = Number.MAX_SAFE_INTEGER;

/**
 * The JSON Schema as `tools/list` shows it, without what says nothing to a model: `$schema`, the
 * safe-integer bounds zod writes on every integer, `propertyNames: { type: string }` (JSON keys are
 * strings), `additionalProperties: {}` (the default) and, in outputs, `additionalProperties: false`
 * and enums (a status or a priority: the inputs and docs/mcp.md name the values), and the inputs'
 * length caps and patterns (still enforced).
 */
function trimmed(node: unknown, io: 'input' | 'output'): unknown {
  if (Array.isArray(node)) return node.map((n) => trimmed(n, io));
  if (!node || typeof node !== 'object') return node;
  const out: Json = {};
  for (const [key, value] of Object.entries(node as Json)) {
    if (key === '$schema') continue;
    if ((key === 'minimum' && value === -SAFE) || (key === 'maximum' && value === SAFE)) continue;
    if (key === 'propertyNames' && JSON.stringify(value) === '{"type":"string"}') continue;
    // An output's enums (a status, a priority) are the inputs' and the docs': said once, not per tool.
    if (key === 'enum' && io === 'output') continue;
    // Length caps and patterns are the server's to enforce (zod checks every argument and names the
    // field at fault): a model needs the field's meaning, not its guard rails.
    if ((key === 'maxLength' || key === 'pattern') && typeof value !== 'object') continue;
    if (
      key === 'additionalProperties' &&
      (JSON.stringify(value) === '{}' || (io === 'output' && value === false))
    )
      continue;
    out[key] = trimmed(value, io);
  }
  return out;
}

/**
 * The same zod schema (the SDK validates with it) whose advertised JSON Schema is trimmed: every
 * token of `tools/list` is paid by the model (budget 2,200 for all tools).
 */
function lean<S extends z.ZodType>(schema: S): S {
  const std = schema['~standard'] as S['~standard'] & {
    jsonSchema: { input(o: unknown): Json; output(o: unknown): Json };
  };
  const wrapped = {
    '~standard': {
      ...std,
      validate: std.validate,
      jsonSchema: {
        input: (o: unknown) => trimmed(std.jsonSchema.input(o), 'input') as Json,
        output: (o: unknown) => trimmed(std.jsonSchema.output(o), 'output') as Json,
      },
    },
  };
  return wrapped as unknown as S;
}

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
  z.string().max(40).optional().describe(`${what}; ISO date or date-time, UTC.`);

/** A calendar month, UTC (`2026-03`): the same as createdFrom = its first day, createdTo = the next month's. */
const Month = z
  .string()
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'month must be YYYY-MM, e.g. 2026-03')
  .optional()
  .describe('YYYY-MM, UTC; or createdFrom/createdTo.');

const Id = (what: string) => z.string().min(1).max(64).describe(what);

const periodFilters = {
  calculatorSlug: z.enum(SLUGS).optional(),
  state: z
    .string()
    .regex(/^[A-Za-z]{2}$/, 'state must be a two-letter US state code such as NY or CA')
    .optional(),
  month: Month,
  createdFrom: dateBound('inclusive'),
  createdTo: dateBound('exclusive'),
  includeTest: z.boolean().default(false).describe('With test and held data.'),
};

const paging = {
  limit: z.number().int().min(1).max(100).default(25),
  cursor: z.string().max(1000).optional().describe('Previous nextCursor; same filters.'),
};

/**
 * Statuses come from the lead's contract (a status the leads domain adds, such as `lost`, is
 * accepted here the day it lands); which moves are allowed is the leads domain's transition table.
 */
const Status = LeadStatusSchema;

export const getLeadsInput = lean(
  strict({
    status: Status.optional(),
    ...periodFilters,
    // Issue 40: search and sort, as REST and the portal take them.
    q: z.string().max(100).optional().describe('Name or e-mail prefix.'),
    sort: z.enum(['received', 'value', 'priority']).optional().describe('Default received.'),
    ...paging,
  }),
);

export const getResultsInput = lean(strict({ ...periodFilters, ...paging }));

export const getStatsInput = lean(
  strict({
    windowDays: z.number().int().min(1).max(365).default(30).describe('Days ending now.'),
    month: Month,
  }),
);

export const getLeadInput = lean(strict({ id: Id('Lead id.') }));

export const updateLeadStatusInput = lean(
  strict({
    id: Id('Lead id.'),
    status: Status,
    lostReason: LostReasonSchema.optional().describe('With lost.'),
  }),
);

export const exportResultsInput = lean(
  strict({
    of: z.enum(['leads', 'results']),
    format: z.enum(['csv', 'json']).default('csv'),
    status: Status.optional().describe('Leads only.'),
    ...periodFilters,
  }),
);

export const generateReportInput = lean(strict({ resultId: Id('Result id (a lead’s result.id).') }));

const pageOf = <T extends z.ZodType>(key: string, item: T) =>
  z.object({
    [key]: z.array(item),
    totalMatching: z.number().int(),
    totalMatchingCapped: z.boolean(),
    nextCursor: z.string().optional(),
    asOf: z.string(),
  });

export const getLeadsOutput = lean(
  pageOf('leads', McpLeadSchema).extend({
    appliedFilters: z.record(z.string(), z.unknown()),
  }),
);

export const getResultsOutput = lean(pageOf('results', McpResultSchema.extend({ createdAt: z.string() })));

// The contract's answer (contracts/stats.ts), with the funnel advertised loosely: its shape is
// FunnelSchema, checked by the handler's type; tools/list stays within its token budget.
export const getStatsOutput = lean(
  DirectoryStatsAnswerSchema.extend({
    byStatus: z.record(z.string(), z.number().int()),
    funnel: z.record(z.string(), z.unknown()),
  }),
);

/**
 * `get_lead` and `update_lead_status` answer one lead; their output schemas name the keys a client
 * relies on and leave the rest open (the full shapes are McpLeadDetailSchema and McpLeadSchema,
 * which the handlers build; docs/mcp.md shows them): `tools/list` stays within its budget.
 */
const OneLead = z.looseObject({ id: z.string(), status: Status, portalUrl: z.string() });

export const getLeadOutput = lean(
  z.object({ lead: OneLead.extend({ result: z.record(z.string(), z.unknown()).nullable() }) }),
);

export const updateLeadStatusOutput = lean(z.object({ lead: OneLead, changed: z.boolean() }));

/** What export_results and generate_report answer: where to read the file, for how long. */
export const resourceOutput = lean(
  z.object({
    uri: z.string(),
    mimeType: z.string(),
    rows: z.number().int().optional(),
    bytes: z.number().int(),
    expiresAt: z.string(),
  }),
);

/**
 * `estimate`: a calculator and its inputs. The inputs' fields are each calculator's own schema,
 * described once in the `svc://calculators` resource (the tool's description names it), not here:
 * five forms in `tools/list` would cost the model more than every other tool together. For the
 * same reason `estimate` has no title and declares no output schema (with one, `tools/list` came to
 * 2,226 tokens; without, 2,195): its `structuredContent` is documented in docs/mcp.md.
 */
export const estimateInput = lean(
  strict({
    calculator: z.enum(SLUGS),
    inputs: z.record(z.string(), z.unknown()),
  }),
);
