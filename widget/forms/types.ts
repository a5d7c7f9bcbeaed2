import type { FieldIssue, WidgetCore } from '../../calculators/types.ts';

export interface Choice {
  value: string;
  label: string;
}

/**
 * One question of a calculator's form, in the visitor's words. The technical term goes in
 * `help`; what the server's schema accepts is mirrored by `validate.ts` (a test keeps the two in
 * step, and the server stays the authority).
 */
export interface FieldSpec {
  name: string;
  label: string;
  help?: string;
  kind: 'money' | 'number' | 'select' | 'boolean' | 'date';
  required: boolean;
  options?: readonly Choice[];
  default?: number | boolean;
  /** Behind the "Advanced" disclosure. */
  advanced?: boolean;
  /** number: whole numbers within [min, max]; date: ISO dates within [min, max]. */
  integer?: boolean;
  min?: number | string;
  max?: number | string;
  /** A figure for the error message, e.g. "2,500,000". */
  example?: string;
  /** The message when a required answer is missing. */
  missing?: string;
  /** Checked for numbers below min (e.g. RMD age); `{0}` is the min. */
  tooLow?: string;
}

/** One part of the "where it goes" chart. */
export interface Slice {
  label: string;
  amount: number;
  tone: 'keep' | 'federal' | 'state' | 'fees';
}

export interface FormSpec {
  /** One sentence under the title, in the visitor's words. */
  lede: string;
  fields: readonly FieldSpec[];
  /** Checks across fields that the schema makes too (e.g. heir classes per state). */
  check?(inputs: Record<string, unknown>): FieldIssue[];
  /** The result in one sentence. */
  headline(outputs: Record<string, unknown>, inputs: Record<string, unknown>): string;
  chart?(outputs: Record<string, unknown>, inputs: Record<string, unknown>): Slice[];
  /** Outputs shown as figures, with the visitor's label. */
  figures: readonly (readonly [key: string, label: string])[];
}

/** What one widget page bundles: its calculator's code and its form. */
export interface WidgetCalculator {
  // biome-ignore lint/suspicious/noExplicitAny: each page holds its own calculator's input type
  core: WidgetCore<any>;
  form: FormSpec;
}
