import { MAX_DOLLARS } from '../calculators/limits.ts';
import { groupDigits } from '../calculators/money.ts';
import type { FieldIssue } from '../calculators/types.ts';
import type { FieldSpec, FormSpec } from './forms/types.ts';
import { t } from './i18n/t.ts';

export type Validation =
  | { ok: true; inputs: Record<string, unknown> }
  | { ok: false; issues: FieldIssue[]; inputs: Record<string, unknown> };

/** "$8,000,000.50", "8 000 000", "8000000 USD" → "8000000.50"; anything else stays as typed. */
export function moneyDigits(text: string): string {
  const t = text.replace(/[$,\s]|usd/gi, '');
  return /^-?\d*\.?\d*$/.test(t) ? t : text;
}

/** What a money control shows while the visitor types: grouped digits, at most two decimals. */
export function formatMoneyInput(text: string): string {
  const t = text.replace(/[^\d.]/g, '');
  const dot = t.indexOf('.');
  const whole = (dot < 0 ? t : t.slice(0, dot)).replace(/^0+(?=\d)/, '');
  const grouped = groupDigits(whole);
  return dot < 0
    ? grouped
    : `${grouped || '0'}.${t
        .slice(dot + 1)
        .replace(/\./g, '')
        .slice(0, 2)}`;
}

const isRealDay = (d: string) =>
  /^\d{4}-\d{2}-\d{2}$/.test(d) && new Date(`${d}T00:00:00Z`).toISOString().slice(0, 10) === d;

/**
 * One control's value to the API's value, or the sentence that says what to fix: a sentence without
 * values in English (the field's error is said in the page's language where it is shown), one
 * with values already in the page's language.
 */
function parseField(f: FieldSpec, raw: unknown): { value?: unknown; error?: string } {
  if (f.kind === 'boolean') return { value: raw === undefined || raw === '' ? f.default : raw === true };
  const text = String(raw ?? '').trim();
  if (text === '') {
    if (f.required) return { error: f.missing ?? t('Answer “{0}”', t(f.label)) };
    return f.default === undefined ? {} : { value: f.default };
  }
  if (f.kind === 'select') {
    return f.options?.some((o) => o.value === text)
      ? { value: text }
      : { error: 'Choose one of the listed answers' };
  }
  if (f.kind === 'date') {
    if (!isRealDay(text)) return { error: 'Enter a date such as 2026-06-30' };
    if ((f.min && text < String(f.min)) || (f.max && text > String(f.max)))
      return { error: t('Choose a date between {0} and {1}', f.min, f.max) };
    return { value: text };
  }
  const digits = f.kind === 'money' ? moneyDigits(text) : text;
  const n = Number(digits);
  const eg = f.example ? t(', e.g. {0}', f.example) : '';
  if (!/^-?(\d+\.?\d*|\.\d+)$/.test(digits) || !Number.isFinite(n))
    return { error: t('Enter a number') + eg };
  if (f.kind === 'money') {
    if (n < 0) return { error: 'Enter an amount of zero or more' };
    if (n > MAX_DOLLARS) return { error: 'Enter an amount up to $1,000,000,000,000' };
    if (/\.\d{3}/.test(digits)) return { error: 'Enter dollars and cents, at most two decimals' };
    return { value: n };
  }
  if (f.integer && !Number.isInteger(n)) return { error: t('Enter a whole number') + eg };
  if (typeof f.min === 'number' && n < f.min) return { error: t(f.tooLow ?? 'Enter {0} or more', f.min) };
  if (typeof f.max === 'number' && n > f.max) return { error: t('Enter {0} or less', f.max) };
  return { value: n };
}

/**
 * The widget's own check of a form, mirroring the calculator's schema (a test compares the two on
 * the same inputs) so the page ships no zod. The server validates again and is the authority.
 */
export function validate(form: FormSpec, values: Record<string, unknown>): Validation {
  const inputs: Record<string, unknown> = {};
  const issues: FieldIssue[] = [];
  for (const f of form.fields) {
    const { value, error } = parseField(f, values[f.name]);
    if (error) issues.push({ path: f.name, message: error });
    else if (value !== undefined) inputs[f.name] = value;
  }
  if (issues.length === 0) issues.push(...(form.check?.(inputs) ?? []));
  return issues.length ? { ok: false, issues, inputs } : { ok: true, inputs };
}
