import { z } from '@hono/zod-openapi';
import { Iso } from './common.ts';

/**
 * The lead, declared once. REST answers it as is (`Lead` in the API document), webhooks send it as
 * `data`, the CSV's columns and the portal's and the CLI's types are read from it, and the domain's
 * `LeadView` is its inferred type, so a field added here reaches every one of them or fails to
 * compile. Changes are additive: a field, once public, stays (`consentText` beside `consent.text`
 * is kept for the clients that read it, and marked deprecated).
 */

export const LeadStatusSchema = z.enum(['new', 'contacted', 'converted', 'lost']);

/** Why a lead was lost (issue 40): set with the status `lost`, cleared when it moves on. */
export const LostReasonSchema = z.enum(['went_elsewhere', 'not_a_fit', 'no_answer', 'other']);

/** The result's main figure, as its calculator declares it (`figures.main`), with its label. */
const LeadValueSchema = z
  .object({
    figure: z.string().openapi({ description: 'The output it is', example: 'totalTax' }),
    label: z.string().openapi({ example: 'Total estate tax' }),
    amount: z.number().openapi({ description: 'US dollars', example: 1_538_000 }),
  })
  .openapi('LeadValue');

/** Whom to call first, and why: rated when the lead was stored, from its result's own rule set. */
const LeadPrioritySchema = z
  .object({
    level: z.enum(['high', 'medium', 'low']),
    reasons: z.array(z.string()).openapi({
      description: 'Plain sentences',
      example: ['Estate of $12M is $9M over Washington’s $3M exemption; about $1.5M in state tax at stake.'],
    }),
    ruleVersion: z
      .string()
      .openapi({ description: 'The priority rule table that rated it', example: 'estate-tax.1' }),
  })
  .openapi('LeadPriority');

const LeadConsentSchema = z
  .object({
    versionId: z
      .string()
      .nullable()
      .openapi({ description: 'The firm’s consent version the visitor agreed to' }),
    text: z.string().openapi({ description: 'That version’s exact text' }),
    sha256: z.string().openapi({ description: 'SHA-256 of the text (hex)' }),
    agreedAt: Iso,
    page: z.string().nullable().openapi({
      description: 'Origin and path of the host page, as reported by the page (null if not reported)',
    }),
    pageVerified: z.boolean().nullable().openapi({
      description:
        'True when the reported page was on the embed session’s origin; false when it was elsewhere and was dropped (`page` is then null); null when no page was reported or the lead predates the check',
    }),
    assumed: z.boolean().openapi({
      description:
        'True when the widget named no version (an older widget): the version in force when the lead arrived was stored',
    }),
  })
  .openapi('LeadConsent');

/** A calculation as data: what `GET /api/results/{id}` answers and what a lead carries. */
export const LeadResultSchema = z
  .object({
    id: z.string(),
    calculator: z.string().openapi({ description: 'Calculator slug', example: 'estate-tax' }),
    state: z.string().nullable().openapi({ example: 'NY' }),
    inputs: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The visitor’s inputs', example: { estateValue: 8_000_000, state: 'NY' } }),
    outputs: z
      .record(z.string(), z.unknown())
      .openapi({ description: 'The figures computed', example: { stateTax: 773_200 } }),
    headline: z
      .string()
      .nullable()
      .openapi({ description: 'The main figure in words', example: 'Total estate tax: $773,200' }),
  })
  .openapi('LeadResult');

export const LeadSchema = z
  .object({
    leadId: z.string(),
    calculator: z.string(),
    resultId: z.string().nullable(),
    name: z.string(),
    email: z.string(),
    phone: z.string().nullable(),
    state: z.string().nullable(),
    status: LeadStatusSchema,
    consentText: z.string().openapi({
      description: 'The text of the consent version the visitor saw. Deprecated: read `consent.text`.',
      deprecated: true,
    }),
    consentVersionId: z
      .string()
      .nullable()
      .openapi({ description: 'Deprecated: read `consent.versionId`.', deprecated: true }),
    consentedAt: Iso.openapi({ description: 'Deprecated: read `consent.agreedAt`.', deprecated: true }),
    consent: LeadConsentSchema,
    result: LeadResultSchema.nullable().openapi({
      description: 'The calculation behind the lead (null when none)',
    }),
    test: z.boolean().openapi({ description: 'From a test-mode session (development host)' }),
    quarantined: z
      .boolean()
      .openapi({ description: 'Held for spam signals; release it to treat it as usual' }),
    quarantineReasons: z.array(z.string()).openapi({
      description:
        'Why it is held: network_burst, block_burst, link_in_name, disposable_email, no_proof_of_work (empty when live)',
    }),
    createdAt: Iso,
    updatedAt: Iso,
    lostReason: LostReasonSchema.optional().openapi({
      description: 'Why the lead was lost (present only when `status` is `lost`)',
    }),
    value: LeadValueSchema.optional().openapi({
      description: 'The main figure of its result (absent: no result, or no figure to read)',
    }),
    priority: LeadPrioritySchema.optional().openapi({
      description:
        'Whom to call first (absent: not rated yet — no result, or the rules changed and the lead is being re-rated)',
    }),
  })
  .openapi('Lead');

export type LeadView = z.infer<typeof LeadSchema>;
export type LeadConsent = z.infer<typeof LeadConsentSchema>;
export type LeadResult = z.infer<typeof LeadResultSchema>;
export type LeadValue = z.infer<typeof LeadValueSchema>;
export type LeadPriority = z.infer<typeof LeadPrioritySchema>;
export type LostReason = z.infer<typeof LostReasonSchema>;

const Described = (text: string) => Iso.describe(text);

/** The lead's result as MCP shows it: the contract's result, plus its slug and its figures in one object. */
const McpLeadResultSchema = LeadResultSchema.extend({
  calculatorSlug: LeadResultSchema.shape.calculator,
  metadata: z
    .record(z.string(), z.unknown())
    .describe('The calculation’s inputs and outputs in one object, e.g. estateValue, federalTax, stateTax.'),
  calculator: LeadResultSchema.shape.calculator.describe('Calculator slug (the same as calculatorSlug).'),
  inputs: LeadResultSchema.shape.inputs.describe('The visitor’s inputs, e.g. estateValue, state.'),
  outputs: LeadResultSchema.shape.outputs.describe('The figures computed, e.g. federalTax, stateTax.'),
  headline: LeadResultSchema.shape.headline.describe(
    'The main figure in words, e.g. "Total estate tax: $773,200.00".',
  ),
});

const consent = LeadConsentSchema.shape;
const McpLeadConsentSchema = z.object({
  versionId: consent.versionId.describe('The firm’s consent version the visitor agreed to.'),
  text: consent.text.describe('That version’s exact text.'),
  sha256: consent.sha256.describe('SHA-256 of the text, hex.'),
  agreedAt: Described('ISO 8601 date-time, UTC.'),
  page: consent.page.describe('Host page (origin + path) as reported by the page; null if not reported.'),
  pageVerified: consent.pageVerified.describe(
    'True when the page was on the embed session’s origin; false when a page elsewhere was reported and dropped; null when none was reported.',
  ),
  assumed: consent.assumed.describe(
    'True when an older widget named no version and the current one was stored.',
  ),
});

/**
 * MCP's lead (`get_leads`): a named projection of the lead above, with the keys the interface
 * document names (`id`, `name`, `email`, `calculatorSlug`, `state`, `status`, `createdAt`, a
 * result's `metadata`) and no phone or result when there is none. Its fields are the contract's;
 * only MCP's descriptions are its own.
 */
export const McpLeadSchema = z.object({
  id: LeadSchema.shape.leadId,
  name: LeadSchema.shape.name,
  email: LeadSchema.shape.email,
  phone: z.string().optional(),
  calculatorSlug: LeadSchema.shape.calculator,
  state: LeadSchema.shape.state,
  status: LeadStatusSchema,
  createdAt: Described('ISO 8601 date-time, UTC.'),
  result: McpLeadResultSchema.optional(),
  consent: McpLeadConsentSchema,
});
export type McpLead = z.infer<typeof McpLeadSchema>;

/** The lead as MCP shows it, from the one lead shape every other surface uses. */
export function toMcpLead(lead: LeadView): McpLead {
  return {
    id: lead.leadId,
    name: lead.name,
    email: lead.email,
    ...(lead.phone ? { phone: lead.phone } : {}),
    calculatorSlug: lead.calculator,
    state: lead.state,
    status: lead.status,
    createdAt: lead.createdAt,
    ...(lead.result
      ? {
          result: {
            ...lead.result,
            calculatorSlug: lead.result.calculator,
            metadata: { ...lead.result.inputs, ...lead.result.outputs },
          },
        }
      : {}),
    consent: lead.consent,
  };
}
