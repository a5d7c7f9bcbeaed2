import { action, computed, createModel, signal } from '@preact/signals';
import type { CalculationResult } from '../calculators/types.ts';
import type { ErrorPayload, EventType, PayloadOf } from '../protocol/index.ts';
import { type Api, ApiError, asApiError, type EstimateResponse, problemsByField } from './api.ts';
import type { FieldSpec, WidgetCalculator } from './forms/types.ts';
import { formatMoneyInput, validate } from './validate.ts';

export type Emit = <T extends EventType>(type: T, payload: PayloadOf[T]) => void;

export type Instant =
  | { ok: true; inputs: Record<string, unknown>; result: CalculationResult }
  | { ok: false; issues: { path: string; message: string }[] };

/** What a control shows before the visitor types; `preset` comes from the host's `data-state`. */
function initialValue(field: FieldSpec, preset: Record<string, string>): unknown {
  if (field.kind === 'boolean') return field.default === true;
  const given = preset[field.name];
  if (given && field.options?.some((o) => o.value === given)) return given;
  return field.kind === 'money' && typeof field.default === 'number' && field.default > 0
    ? formatMoneyInput(String(field.default))
    : '';
}

/**
 * The calculator form: values as typed, the instant result computed here on every keystroke (the
 * calculator's own code, the same the server runs), and the server's stored result after submit.
 */
export const CalculatorModel = createModel(
  (calc: WidgetCalculator, api: Api, emit: Emit, preset: Record<string, string> = {}) => {
    const { core, form } = calc;
    const values = signal<Record<string, unknown>>(
      Object.fromEntries(form.fields.map((f) => [f.name, initialValue(f, preset)])),
    );
    const instant = computed<Instant>(() => {
      const checked = validate(form, values.value);
      if (!checked.ok) return checked;
      try {
        return {
          ok: true,
          inputs: checked.inputs,
          result: core.compute(checked.inputs, { now: new Date() }),
        };
      } catch {
        return { ok: false, issues: [{ path: '(inputs)', message: 'These answers cannot be worked out.' }] };
      }
    });
    const result = signal<EstimateResponse | undefined>(undefined);
    const fieldErrors = signal<Record<string, string>>({});
    const error = signal<ErrorPayload | undefined>(undefined);
    const busy = signal(false);

    function fail(failure: ApiError): void {
      error.value = failure.payload;
      fieldErrors.value = problemsByField(failure.details);
      emit('svc-error', failure.payload);
    }

    return {
      values,
      instant,
      result,
      fieldErrors,
      error,
      busy,
      setValue: action((name: string, value: unknown) => {
        values.value = { ...values.value, [name]: value };
        // The stored result no longer matches what is on screen; the preview takes over.
        result.value = undefined;
        error.value = undefined;
        if (fieldErrors.value[name]) {
          const { [name]: _, ...rest } = fieldErrors.value;
          fieldErrors.value = rest;
        }
      }),
      calculate: action(async () => {
        const local = instant.value;
        if (!local.ok) {
          // The calculator's own checks: no need to ask the server to refuse these inputs.
          return fail(
            new ApiError(
              { reason: 'invalid_input', message: 'Some answers need another look.' },
              400,
              local.issues,
            ),
          );
        }
        busy.value = true;
        error.value = undefined;
        try {
          const body = await api.estimate({ calculator: core.slug, inputs: local.inputs });
          result.value = body;
          fieldErrors.value = {};
          const { resultId, calculator, state, inputs: sent, outputs, ruleSet } = body;
          emit('svc-result', { resultId, calculator, state, inputs: sent, outputs, ruleSet });
        } catch (e) {
          fail(asApiError(e));
        } finally {
          busy.value = false;
        }
      }),
      downloadReport: action(async () => {
        const stored = result.value;
        if (!stored) return;
        try {
          const blob = await api.report(stored.resultId);
          const url = URL.createObjectURL(blob);
          const link = document.createElement('a');
          link.href = url;
          link.download = `${core.slug}-estimate-${new Date().toISOString().slice(0, 10)}.pdf`;
          link.click();
          setTimeout(() => URL.revokeObjectURL(url), 60_000);
        } catch (e) {
          fail(asApiError(e));
        }
      }),
    };
  },
);
