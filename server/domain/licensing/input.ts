import { z } from 'zod';
import { AppError } from '../../lib/errors.ts';
import { parseDomainPattern } from './domains.ts';
import { findPlan, type PlanTable } from './plans.ts';

const DATE_FORMAT_HINT = 'Expected a real date as YYYY-MM-DD (or an ISO 8601 date-time with offset)';

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** A calendar date (midnight UTC) or an exact instant; anything else names the expected format. */
function parseDateText(text: string): Date | undefined {
  if (!DATE_ONLY.test(text) && !DATE_TIME.test(text)) return undefined;
  const date = new Date(DATE_ONLY.test(text) ? `${text}T00:00:00Z` : text);
  if (Number.isNaN(date.getTime())) return undefined;
  // 2026-02-30 parses as March 2nd: refuse it rather than guess.
  if (DATE_ONLY.test(text) && date.toISOString().slice(0, 10) !== text) return undefined;
  return date;
}

export const DateText = z
  .string()
  .max(40)
  .refine((v) => parseDateText(v) !== undefined, DATE_FORMAT_HINT)
  .transform((v) => parseDateText(v)!);

const DomainList = z.array(z.string().min(1).max(253)).max(100);

/** `license update` (admin API, CLI, portal): every field optional, at least one given. */
export const LicenseUpdateSchema = z
  .object({
    addDomains: DomainList.optional(),
    removeDomains: DomainList.optional(),
    seats: z.number().int().min(0).max(10_000).optional(),
    plan: z.string().min(1).max(40).optional(),
    paidThrough: DateText.optional(),
    trialEndsAt: DateText.optional(),
  })
  .strict()
  .refine((v) => Object.values(v).some((x) => x !== undefined), 'Nothing to change: give at least one field');

export type LicenseUpdate = z.output<typeof LicenseUpdateSchema>;

/** The stored form of an allowed-domains entry (`example.com`, `*.example.com`), or INVALID_REQUEST. */
export function normalizeDomainEntry(entry: string, field = 'domains'): string {
  const pattern = parseDomainPattern(entry);
  if ('error' in pattern)
    throw new AppError('INVALID_REQUEST', pattern.error, {
      details: [{ path: field, message: pattern.error }],
    });
  return pattern.kind === 'exact' ? pattern.host : `*.${pattern.suffix}`;
}

/** The plan of that name from the configured table (`PLANS`), or INVALID_REQUEST listing the known ones. */
export function requirePlan(plans: PlanTable, name: string) {
  const plan = findPlan(plans, name);
  if (!plan) {
    const message = `Unknown plan "${name}". Known plans: ${Object.keys(plans).join(', ')} (configure more with PLANS).`;
    throw new AppError('INVALID_REQUEST', message, { details: [{ path: 'plan', message }] });
  }
  return plan;
}
