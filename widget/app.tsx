import { useModel } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import { getCalculator } from '../calculators/index.ts';
import { createApi } from './api.ts';
import type { Bridge } from './bridge.ts';
import { CalculatorModel, type Emit } from './calculator-model.ts';
import { FieldInput } from './components/field-input.tsx';
import { LeadForm } from './components/lead-form.tsx';
import { ResultView } from './components/result-view.tsx';
import { LeadModel } from './lead-model.ts';
import { SessionModel } from './session-model.ts';

/** The whole widget page: the form, the figures, the contact form once a result is stored. */
export function App({ slug, bridge }: { slug: string; bridge: Bridge | undefined }) {
  const calculator = getCalculator(slug);
  const session = useModel(() => new SessionModel(bridge));
  const { api, emit } = useMemo(() => {
    const emit: Emit = (type, payload) => bridge?.emit(type, payload);
    const api = createApi({ credentials: () => session.credentials.value, renew: session.renew });
    return { api, emit };
  }, [bridge, session]);
  const calc = useModel(() => new CalculatorModel(slug, api, emit));
  const lead = useModel(() => new LeadModel(slug, api, emit, calc.result));

  if (!calculator) return <p class="error">There is no calculator “{slug}”.</p>;
  const stored = calc.result.value;
  const instant = calc.instant.value;
  const connected = session.credentials.value !== undefined;
  const figures = stored ?? (instant.ok ? instant.result : undefined);
  return (
    <main>
      <h2>{calculator.name}</h2>
      <form
        class="calc"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void calc.calculate();
        }}
      >
        {calc.fields.value.map((field) => (
          <FieldInput
            key={field.name}
            field={field}
            value={calc.values.value[field.name]}
            error={calc.fieldErrors.value[field.name]}
            onInput={(v) => calc.setValue(field.name, v)}
          />
        ))}
        <button type="submit" disabled={calc.busy.value || !connected}>
          {connected ? 'Calculate' : session.problem.value ? 'Unavailable' : 'Connecting…'}
        </button>
      </form>
      {session.problem.value && (
        <p class="notice" role="status">
          {session.problem.value.message}
        </p>
      )}
      {calc.error.value && (
        <p class="error" role="alert">
          {calc.error.value}
        </p>
      )}
      {figures && (
        <ResultView
          labels={calculator.outputLabels}
          outputs={figures.outputs}
          lineItems={figures.lineItems}
          stored={stored !== undefined}
          {...(stored ? { onReport: () => void calc.downloadReport() } : {})}
        />
      )}
      {stored && <LeadForm lead={lead} />}
      <p class="disclaimer">{calculator.disclaimer}</p>
    </main>
  );
}
