import { z } from 'zod';

/**
 * The plan table: plan names with their default seats and the per-license ceilings that protect a
 * firm from abuse of its public key. Crossing a ceiling never refuses real visitors (the trust model
 * tightens per-IP limits and writes an alert instead), so the numbers are generous. Operators
 * override or extend the table with the `PLANS` variable (JSON object keyed by plan name); a plan
 * named there replaces the default of the same name.
 */
export interface Plan {
  name: string;
  /** Seats a new license of this plan gets unless told otherwise. */
  seats: number;
  /** Embed sessions per minute across all visitors of one license before limits tighten. */
  sessionsPerMinute: number;
  /** Leads per day before further leads are stored as quarantined. */
  leadsPerDay: number;
  /** Webhook endpoints a firm on this plan may register (its best license's plan counts). */
  webhookEndpoints: number;
}

/** Endpoints a plan allows when it does not say (and a firm without a license gets). */
export const DEFAULT_WEBHOOK_ENDPOINTS = 10;

export const DEFAULT_PLANS: Readonly<Record<string, Plan>> = Object.freeze({
  trial: {
    name: 'trial',
    seats: 1,
    sessionsPerMinute: 120,
    leadsPerDay: 100,
    webhookEndpoints: DEFAULT_WEBHOOK_ENDPOINTS,
  },
  starter: {
    name: 'starter',
    seats: 1,
    sessionsPerMinute: 300,
    leadsPerDay: 250,
    webhookEndpoints: DEFAULT_WEBHOOK_ENDPOINTS,
  },
  pro: {
    name: 'pro',
    seats: 3,
    sessionsPerMinute: 1200,
    leadsPerDay: 1000,
    webhookEndpoints: DEFAULT_WEBHOOK_ENDPOINTS,
  },
  agency: {
    name: 'agency',
    seats: 25,
    sessionsPerMinute: 6000,
    leadsPerDay: 5000,
    webhookEndpoints: DEFAULT_WEBHOOK_ENDPOINTS,
  },
});

const PlanOverride = z
  .object({
    seats: z.number().int().min(0).max(10_000).optional(),
    sessionsPerMinute: z.number().int().min(1).max(10_000_000).optional(),
    leadsPerDay: z.number().int().min(1).max(10_000_000).optional(),
    webhookEndpoints: z.number().int().min(0).max(1_000).optional(),
  })
  .strict();
const PlansOverride = z.record(z.string().regex(/^[a-z][a-z0-9-]{0,31}$/), PlanOverride);

export type PlanTable = Readonly<Record<string, Plan>>;

/**
 * The plan table for a `PLANS` value (undefined = the defaults). A new plan name must give every
 * field; a known one may give only what changes. Throws with a readable message on bad JSON.
 */
export function parsePlans(json: string | undefined): PlanTable {
  if (json === undefined || json.trim() === '') return DEFAULT_PLANS;
  let raw: unknown;
  try {
    raw = JSON.parse(json);
  } catch {
    throw new Error('must be a JSON object, e.g. {"pro":{"seats":5}}');
  }
  const parsed = PlansOverride.safeParse(raw);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${issue.path.join('.') || 'value'}: ${issue.message}`);
  }
  const table: Record<string, Plan> = { ...DEFAULT_PLANS };
  for (const [name, override] of Object.entries(parsed.data)) {
    const base = table[name];
    const merged = { name, webhookEndpoints: DEFAULT_WEBHOOK_ENDPOINTS, ...base, ...override };
    if (
      merged.seats === undefined ||
      merged.sessionsPerMinute === undefined ||
      merged.leadsPerDay === undefined
    ) {
      throw new Error(`${name}: a new plan needs seats, sessionsPerMinute and leadsPerDay`);
    }
    table[name] = merged as Plan;
  }
  return Object.freeze(table);
}

/** The plan of that name, or undefined when the table has none (callers answer a clear error). */
export function findPlan(plans: PlanTable, name: string): Plan | undefined {
  return Object.hasOwn(plans, name) ? plans[name] : undefined;
}
