import { action, computed, createModel, signal } from '@preact/signals';
import { calculatorJsonSchema, getCalculator, runCalculator } from '../calculators/index.ts';
import type { ResultPayload } from '../protocol/index.ts';
import { ApiError, type Credentials, createApi } from './api.ts';
import type { Bridge } from './bridge.ts';

export interface Field {
  name: string;
  label: string;
  kind: 'money' | 'number' | 'select' | 'boolean' | 'date' | 'text';
  options?: readonly string[];
  required: boolean;
  defaultValue?: unknown;
}

/** Form fields from the calculator's JSON Schema, so the widget renders any calculator. */
export function fieldsOf(slug: string): Field[] {
  const schema = calculatorJsonSchema(slug) as {
    properties: Record<
      string,
      { type?: string; enum?: string[]; unit?: string; label?: string; format?: string; default?: unknown }
    >;
    required?: string[];
  };
  const labels = getCalculator(slug)?.inputLabels ?? {};
  return Object.entries(schema.properties).map(([name, prop]) => ({
    name,
    label: labels[name] ?? prop.label ?? name,
    kind: prop.enum
      ? 'select'
      : prop.type === 'boolean'
        ? 'boolean'
        : prop.format === 'date'
          ? 'date'
          : prop.unit === 'USD'
            ? 'money'
            : prop.type === 'number' || prop.type === 'integer'
              ? 'number'
              : 'text',
    ...(prop.enum ? { options: prop.enum } : {}),
    required: schema.required?.includes(name) ?? false,
    ...(prop.default !== undefined ? { defaultValue: prop.default } : {}),
  }));
}

function parseValue(field: Field, raw: unknown): unknown {
  if (field.kind === 'boolean') return raw === true;
  if (raw === '' || raw === undefined) return undefined;
  if (field.kind === 'money' || field.kind === 'number') {
    const n = Number(String(raw).replace(/[$,\s]/g, ''));
    return Number.isFinite(n) ? n : String(raw);
  }
  return raw;
}

/** The widget's state: form values, the instant (local) result, the server result, the lead. */
export const WidgetModel = createModel((slug: string, bridge: Bridge | undefined) => {
  const fields = fieldsOf(slug);
  const values = signal<Record<string, unknown>>(
    Object.fromEntries(fields.map((f) => [f.name, f.defaultValue ?? (f.kind === 'boolean' ? false : '')])),
  );
  const credentials = signal<Credentials | undefined>(undefined);
  const result = signal<ResultPayload | undefined>(undefined);
  const fieldErrors = signal<Record<string, string>>({});
  const busy = signal(false);
  const error = signal<string | undefined>(undefined);
  const leadId = signal<string | undefined>(undefined);
  const api = createApi(() => credentials.value);
  let leadKey: string | undefined;

  const inputs = computed(() =>
    Object.fromEntries(
      fields.map((f) => [f.name, parseValue(f, values.value[f.name])]).filter(([, v]) => v !== undefined),
    ),
  );
  const instant = computed(() => runCalculator(slug, inputs.value));

  bridge?.onToken((message) => {
    credentials.value = { token: message.token, apiUrl: message.apiUrl };
  });

  const fail = (e: unknown) => {
    const apiError =
      e instanceof ApiError ? e : new ApiError({ reason: 'unknown', message: 'Something went wrong.' });
    error.value = apiError.payload.message;
    fieldErrors.value = Object.fromEntries(
      apiError.details.map((d) => [d.path.replace(/^inputs\./, ''), d.message]),
    );
    bridge?.emit('svc-error', apiError.payload);
  };

  return {
    values,
    credentials,
    result,
    fieldErrors,
    busy,
    error,
    leadId,
    instant,
    setValue: action((name: string, value: unknown) => {
      values.value = { ...values.value, [name]: value };
    }),
    calculate: action(async () => {
      busy.value = true;
      error.value = undefined;
      try {
        const body = (await api.estimate({
          calculator: slug,
          inputs: inputs.value,
        })) as unknown as ResultPayload;
        result.value = body;
        fieldErrors.value = {};
        leadId.value = undefined;
        leadKey = undefined;
        const { resultId, calculator, state, inputs: sent, outputs, ruleSet } = body;
        bridge?.emit('svc-result', { resultId, calculator, state, inputs: sent, outputs, ruleSet });
      } catch (e) {
        fail(e);
      } finally {
        busy.value = false;
      }
    }),
    submitLead: action(
      async (lead: {
        name: string;
        email: string;
        phone: string;
        state: string;
        consentText: string;
        website: string;
      }) => {
        busy.value = true;
        error.value = undefined;
        leadKey ??= crypto.randomUUID();
        try {
          const body = {
            calculator: slug,
            ...(result.value ? { resultId: result.value.resultId } : {}),
            name: lead.name,
            email: lead.email,
            ...(lead.phone ? { phone: lead.phone } : {}),
            state: lead.state,
            consent: true,
            consentText: lead.consentText,
            ...(lead.website ? { website: lead.website } : {}),
          };
          const created = await api.submitLead(body, leadKey);
          leadId.value = created.leadId;
          bridge?.emit('svc-lead', {
            leadId: created.leadId,
            calculator: slug,
            ...(result.value ? { resultId: result.value.resultId } : {}),
          });
        } catch (e) {
          fail(e);
        } finally {
          busy.value = false;
        }
      },
    ),
    downloadReport: action(async () => {
      if (!result.value) return;
      try {
        const blob = await api.report(result.value.resultId);
        const url = URL.createObjectURL(blob);
        const link = document.createElement('a');
        link.href = url;
        link.download = `${slug}-report.pdf`;
        link.click();
        setTimeout(() => URL.revokeObjectURL(url), 10_000);
      } catch (e) {
        fail(e);
      }
    }),
  };
});
