import { z } from '@hono/zod-openapi';
import { Iso } from './common.ts';
import { TextRefSchema } from './result.ts';

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
    language: z.string().openapi({
      description:
        'The language of the consent text shown: `en` or `es` (a Spanish widget of a firm with no Spanish text shows its English one)',
      example: 'es',
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
    headlineCode: TextRefSchema.nullable().openapi({
      description: 'The headline’s stable code, its amount as the headline writes it',
    }),
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
    language: z.string().openapi({
      description: 'The language the visitor used the widget in: `en` or `es`',
      example: 'es',
    }),
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

/**
 * MCP's lead: a named projection of the lead above, lean because a model pays for every token
 * (25 leads of `get_leads`, text and `structuredContent` together, fit in 6,000 o200k tokens).
 * A listed lead keeps the keys the interface document names (`id`, `name`, `email`,
 * `calculatorSlug`, `state`, `status`, `createdAt`), the phone when there is one, and adds the
 * calculator's name, the result's headline, `value` and `priority` when the lead has them, a
 * consent summary `{ given, versionId, agreedAt }` and `portalUrl`. `get_lead`
 * (McpLeadDetailSchema) adds the linked result `{ id, calculatorSlug, state, metadata }` —
 * `metadata` is MCP's one place for a result's inputs and outputs, so each figure appears once —
 * the consent as stored, the flags and the notes. `value` and `priority` are read from the lead
 * (the leads domain computes them; MCP never does) and absent when it has none: a listed lead
 * carries the value's amount (its label is the headline's) and the priority's level; `get_lead`
 * carries both objects in full, the priority's reasons included.
 * Output schemas carry no descriptions: the tool descriptions say what matters.
 */

export const McpLeadSchema = z.object({
  id: LeadSchema.shape.leadId,
  name: LeadSchema.shape.name,
  email: LeadSchema.shape.email,
  phone: z.string().optional(),
  calculatorSlug: LeadSchema.shape.calculator,
  calculatorName: z.string(),
  state: LeadSchema.shape.state,
  status: LeadStatusSchema,
  createdAt: z.string(),
  headline: z.string().optional(),
  value: LeadValueSchema.shape.amount.optional(),
  priority: LeadPrioritySchema.shape.level.optional(),
  consent: z.object({
    given: z.boolean(),
    versionId: LeadConsentSchema.shape.versionId,
    agreedAt: z.string(),
  }),
  portalUrl: z.string(),
});
export type McpLead = z.infer<typeof McpLeadSchema>;

/**
 * MCP's result: the calculation's `id`, `calculatorSlug`, `state` and `metadata` (its inputs and
 * outputs in one object, MCP's one place for a figure). `get_lead` carries it as the lead's result;
 * `get_calculator_results` lists it with `createdAt`.
 */
export const McpResultSchema = z.object({
  id: z.string(),
  calculatorSlug: z.string(),
  state: z.string().nullable(),
  metadata: z.record(z.string(), z.unknown()),
});

/** `get_lead`: one lead in full — its calculation, the consent as stored (text, hash, page), flags, notes. */
export const McpLeadDetailSchema = McpLeadSchema.extend({
  value: LeadValueSchema.optional(),
  priority: LeadPrioritySchema.optional(),
  lostReason: LostReasonSchema.optional(),
  result: McpResultSchema.nullable(),
  consent: z.object({
    given: z.boolean(),
    versionId: LeadConsentSchema.shape.versionId,
    text: z.string(),
    sha256: z.string(),
    agreedAt: z.string(),
    page: z.string().nullable(),
    pageVerified: z.boolean().nullable(),
    assumed: z.boolean(),
    language: z.string(),
  }),
  /** The language the visitor used the widget in (`en`, `es`). */
  language: z.string(),
  notes: z.array(z.unknown()).optional(),
  test: z.boolean(),
  quarantined: z.boolean(),
  updatedAt: z.string(),
});
export type McpLeadDetail = z.infer<typeof McpLeadDetailSchema>;

/** What the projection needs beyond the lead: the calculator's name and the lead's page in the portal. */
export interface McpLeadContext {
  calculatorName: string;
  portalUrl: string;
}

/**
 * Fields a later issue adds to the lead (`value`, `priority`, `notes`), read when present so the
 * projection passes them through the day they land; absent (or null) means "not computed".
 */
type Later = { value?: unknown; priority?: unknown; notes?: unknown };

/** The lead as MCP lists it, from the one lead shape every other surface uses. */
export function toMcpLead(lead: LeadView, ctx: McpLeadContext): McpLead {
  const later = lead as LeadView & Later;
  return {
    id: lead.leadId,
    name: lead.name,
    email: lead.email,
    ...(lead.phone ? { phone: lead.phone } : {}),
    calculatorSlug: lead.calculator,
    calculatorName: ctx.calculatorName,
    state: lead.state,
    status: lead.status,
    createdAt: lead.createdAt,
    ...(lead.result?.headline ? { headline: lead.result.headline } : {}),
    // Listed leanly: the value's amount (its label is the headline's) and the priority's level;
    // get_lead gives both in full, with the priority's reasons.
    ...(lead.value ? { value: lead.value.amount } : {}),
    ...(lead.priority ? { priority: lead.priority.level } : {}),
    consent: { given: true, versionId: lead.consent.versionId, agreedAt: lead.consent.agreedAt },
    portalUrl: ctx.portalUrl,
  };
}

/** `get_lead`'s lead: the listed lead with its calculation, the consent as stored, the flags and the notes. */
export function toMcpLeadDetail(lead: LeadView, ctx: McpLeadContext): McpLeadDetail {
  const notes = (lead as LeadView & Later).notes;
  const { versionId, text, sha256, agreedAt, page, pageVerified, assumed, language } = lead.consent;
  const { value: _amount, priority: _level, ...listed } = toMcpLead(lead, ctx);
  return {
    ...listed,
    ...(lead.value ? { value: lead.value } : {}),
    ...(lead.priority ? { priority: lead.priority } : {}),
    ...(lead.lostReason ? { lostReason: lead.lostReason } : {}),
    result: lead.result
      ? {
          id: lead.result.id,
          calculatorSlug: lead.result.calculator,
          state: lead.result.state,
          metadata: { ...lead.result.inputs, ...lead.result.outputs },
        }
      : null,
    consent: { given: true, versionId, text, sha256, agreedAt, page, pageVerified, assumed, language },
    language: lead.language,
    ...(Array.isArray(notes) ? { notes } : {}),
    test: lead.test,
    quarantined: lead.quarantined,
    updatedAt: lead.updatedAt,
  };
}
