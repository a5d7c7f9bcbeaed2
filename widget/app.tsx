import { useModel } from '@preact/signals';
import { useMemo } from 'preact/hooks';
import { createApi } from './api.ts';
import type { Bridge } from './bridge.ts';
import { CalculatorModel, type Emit } from './calculator-model.ts';
import { FieldInput } from './components/field-input.tsx';
import { LeadForm } from './components/lead-form.tsx';
import { ResultView } from './components/result-view.tsx';
import type { WidgetCalculator } from './forms/types.ts';
import { t, tx, why } from './i18n/t.ts';
import { LeadModel } from './lead-model.ts';
import { type OnReady, SessionModel } from './session-model.ts';

export interface AppProps {
  calc: WidgetCalculator;
  bridge: Bridge | undefined;
  /** Answers the host page chose (`data-state`). */
  preset?: Record<string, string>;
  /** Called once the first session arrives (the page then emits `svc-ready`). */
  onReady?: OnReady;
}

/** The whole widget page: the questions, the result, the contact form once a result is stored. */
export function App({ calc, bridge, preset, onReady }: AppProps) {
  const { core, form } = calc;
  const session = useModel(() => new SessionModel(bridge, onReady));
  const { api, emit } = useMemo(() => {
    const emit: Emit = (type, payload) => bridge?.emit(type, payload);
    const api = createApi({
      credentials: () => session.credentials.value,
      renew: session.renew,
      page: () => session.page.value,
    });
    return { api, emit };
  }, [bridge, session]);
  const model = useModel(() => new CalculatorModel(calc, api, emit, preset));
  const lead = useModel(() => new LeadModel(core.slug, api, emit, model.result, session.consent));

  const stored = model.result.value;
  const instant = model.instant.value;
  const connected = session.credentials.value !== undefined;
  const problem = session.problem.value;
  const figures = stored ?? (instant.ok ? { ...instant.result, inputs: instant.inputs } : undefined);
  const errors = model.fieldErrors.value;
  const field = (f: (typeof form.fields)[number]) => (
    <FieldInput
      key={f.name}
      field={f}
      value={model.values.value[f.name]}
      error={errors[f.name]}
      onInput={(v) => model.setValue(f.name, v)}
    />
  );
  const advanced = form.fields.filter((f) => f.advanced);
  const firm = session.firm.value?.name;
  return (
    <main class="card">
      <header>
        {/* The firm's name arrives with the session: its line is kept from the start, so the page does not grow then. */}
        <p class="eyebrow">{firm ?? '\u00a0'}</p>
        <h1>{t(`${core.name} calculator`)}</h1>
        <p class="lede">{t(form.lede)}</p>
      </header>
      <form
        class="calc"
        noValidate
        onSubmit={(e) => {
          e.preventDefault();
          void model.calculate();
        }}
      >
        {form.fields.filter((f) => !f.advanced).map(field)}
        {advanced.length > 0 && (
          <details class="advanced" open={advanced.some((f) => errors[f.name])}>
            <summary>{t('Advanced')}</summary>
            {advanced.map(field)}
          </details>
        )}
        <div class="actions">
          <button type="submit" class="primary" disabled={model.busy.value || !connected}>
            {t(
              connected
                ? model.busy.value
                  ? 'Calculating…'
                  : 'Calculate'
                : problem
                  ? 'Unavailable'
                  : 'Connecting…',
            )}
          </button>
        </div>
        {model.error.value && (
          <p class="error" role="alert">
            {why(model.error.value)}
          </p>
        )}
      </form>
      {problem && (
        <p class="notice" role="status">
          {why(problem)}
        </p>
      )}
      {figures ? (
        <ResultView
          form={form}
          figures={figures}
          stored={stored !== undefined}
          busy={model.busy.value}
          onReport={stored ? () => void model.downloadReport() : undefined}
        />
      ) : (
        <section class="result empty" aria-label={t('Result')}>
          <p>{t('Answer the questions above to see an estimate here.')}</p>
        </section>
      )}
      {stored && (
        <LeadForm
          lead={lead}
          firm={session.firm.value}
          consent={session.consent.value?.text}
          consentLanguage={session.consent.value?.language}
        />
      )}
      <footer class="disclaimer">{tx(core.disclaimer)}</footer>
    </main>
  );
}
