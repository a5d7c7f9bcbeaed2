import { action, computed, createModel, signal } from '@preact/signals';
import { runCalculator } from '../calculators/index.ts';
import type { EventType, PayloadOf } from '../protocol/index.ts';
import { type Api, ApiError, type EstimateResponse } from './api.ts';
import { collectInputs, fieldsOf, initialValue } from './fields.ts';

export type Emit = <T extends EventType>(type: T, payload: PayloadOf[T]) => void;

const issuesByField = (issues: { path: string; message: string }[]) =>
  Object.fromEntries(issues.map((i) => [i.path.replace(/^inputs\./, ''), i.message]));

/**
 * The calculator form: values as typed, the instant result computed here on every keystroke
 * (`runCalculator`, the same code the server runs), and the server's stored result after submit.
 */
export const CalculatorModel = createModel((slug: string, api: Api, emit: Emit) => {
  const fields = fieldsOf(slug);
  const values = signal<Record<string, unknown>>(
    Object.fromEntries(fields.map((f) => [f.name, initialValue(f)])),
  );
  const inputs = computed(() => collectInputs(fields, values.value));
  const instant = computed(() => runCalculator(slug, inputs.value));
  const result = signal<EstimateResponse | undefined>(undefined);
  const fieldErrors = signal<Record<string, string>>({});
  const error = signal<string | undefined>(undefined);
  const busy = signal(false);

  function fail(failure: ApiError): void {
    error.value = failure.payload.message;
    fieldErrors.value = issuesByField(failure.details);
    emit('svc-error', failure.payload);
  }

  return {
    /** Constant for a page; a signal only because models hold signals and actions. */
    fields: computed(() => fields),
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
      if (fieldErrors.value[name]) {
        const { [name]: _, ...rest } = fieldErrors.value;
        fieldErrors.value = rest;
      }
    }),
    calculate: action(async () => {
      const local = instant.value;
      if (!local.ok) {
        // The same schema as the server's: no need to ask it to refuse these inputs.
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
        const body = await api.estimate({ calculator: slug, inputs: local.inputs });
        result.value = body;
        fieldErrors.value = {};
        const { resultId, calculator, state, inputs: sent, outputs, ruleSet } = body;
        emit('svc-result', { resultId, calculator, state, inputs: sent, outputs, ruleSet });
      } catch (e) {
        fail(
          e instanceof ApiError ? e : new ApiError({ reason: 'unknown', message: 'Something went wrong.' }),
        );
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
        link.download = `${slug}-${stored.resultId}.pdf`;
        link.click();
        setTimeout(() => URL.revokeObjectURL(url), 60_000);
      } catch (e) {
        fail(
          e instanceof ApiError ? e : new ApiError({ reason: 'unknown', message: 'Something went wrong.' }),
        );
      }
    }),
  };
});
