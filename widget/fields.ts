import { getCalculator } from '../calculators/index.ts';

/** One form control, derived from the calculator's input schema. */
export interface Field {
  name: string;
  label: string;
  /** Longer help shown under the control (the schema's `description`). */
  hint?: string;
  kind: 'money' | 'number' | 'select' | 'boolean' | 'date' | 'text';
  options?: readonly string[];
  required: boolean;
  defaultValue?: unknown;
}

/** The part of a zod 4 schema the form needs; read structurally so the widget does not import zod itself. */
interface SchemaNode {
  def: { type: string; innerType?: SchemaNode; defaultValue?: unknown; format?: string };
  meta(): Record<string, unknown> | undefined;
  options?: readonly string[];
}

function describe(name: string, schema: SchemaNode, labels: Record<string, string>): Field {
  let node = schema;
  let required = true;
  let defaultValue: unknown;
  let meta: Record<string, unknown> = {};
  // Unwrap optional/default layers; metadata may sit on any of them (the outer one wins).
  for (;;) {
    meta = { ...node.meta(), ...meta };
    const { type, innerType } = node.def;
    if ((type !== 'optional' && type !== 'default' && type !== 'nullable') || !innerType) break;
    required = false;
    if (type === 'default') defaultValue = node.def.defaultValue;
    node = innerType;
  }
  const { type, format } = node.def;
  const kind: Field['kind'] =
    type === 'enum'
      ? 'select'
      : type === 'boolean'
        ? 'boolean'
        : type === 'string' && format === 'date'
          ? 'date'
          : type === 'number'
            ? meta.unit === 'USD'
              ? 'money'
              : 'number'
            : 'text';
  return {
    name,
    label: labels[name] ?? (typeof meta.label === 'string' ? meta.label : name),
    ...(typeof meta.description === 'string' ? { hint: meta.description } : {}),
    kind,
    ...(kind === 'select' && node.options ? { options: node.options } : {}),
    required,
    ...(defaultValue !== undefined ? { defaultValue } : {}),
  };
}

/** The form of a calculator, in the schema's order; empty for an unknown slug. */
export function fieldsOf(slug: string): Field[] {
  const calculator = getCalculator(slug);
  const shape = (calculator?.inputSchema as unknown as { shape?: Record<string, SchemaNode> })?.shape;
  if (!calculator || !shape) return [];
  return Object.entries(shape).map(([name, schema]) => describe(name, schema, calculator.inputLabels));
}

/** What a control shows before the visitor types. */
export const initialValue = (field: Field): unknown =>
  field.kind === 'boolean' ? field.defaultValue === true : (field.defaultValue ?? '');

/**
 * A control's text to the value the schema validates. Empty means "not given", so defaults
 * apply; text that is not a number stays text, so the schema's own message explains it.
 */
export function parseValue(field: Field, raw: unknown): unknown {
  if (field.kind === 'boolean') return raw === true;
  if (raw === '' || raw === undefined || raw === null) return undefined;
  if (field.kind === 'money' || field.kind === 'number') {
    const text = String(raw).replace(/[$,\s]/g, '');
    const n = Number(text);
    return text !== '' && Number.isFinite(n) ? n : String(raw);
  }
  return raw;
}

/** The inputs object for `runCalculator` and the API, from the controls' values. */
export function collectInputs(fields: Field[], values: Record<string, unknown>): Record<string, unknown> {
  const inputs: Record<string, unknown> = {};
  for (const field of fields) {
    const value = parseValue(field, values[field.name]);
    if (value !== undefined) inputs[field.name] = value;
  }
  return inputs;
}
