import { formatUsd } from '../../calculators/money.ts';
import { visitorNotes } from '../../calculators/visitor-notes.ts';
import { formatDate, formatOutput } from '../format.ts';
import type { FormSpec } from '../forms/types.ts';
import { t, tx } from '../i18n/t.ts';
import { Chart } from './chart.tsx';

export interface Figures {
  inputs: Record<string, unknown>;
  outputs: Record<string, unknown>;
  lineItems: { label: string; amount: number; kind?: string }[];
  notes: string[];
  ruleSet: { effectiveDate: string; label?: string | undefined };
}

/**
 * The result: a sentence, the picture of where the money goes, the figures and what qualifies them
 * (the notes, always in view: "the fees shown are for the first $25,000,000 only"), then how it
 * was worked out, folded.
 */
export function ResultView(props: {
  form: FormSpec;
  figures: Figures;
  stored: boolean;
  busy: boolean;
  onReport?: (() => void) | undefined;
}) {
  const { form, figures, stored } = props;
  const slices = form.chart?.(figures.outputs, figures.inputs);
  const notes = visitorNotes(figures.notes).map(tx);
  return (
    <section class={stored ? 'result stored' : 'result'} aria-labelledby="result-title">
      <p class="status">{t(stored ? 'Your estimate' : 'Preview · updates as you type')}</p>
      <h2 id="result-title" class="headline" aria-live="polite">
        {form.headline(figures.outputs, figures.inputs)}
      </h2>
      {slices && <Chart slices={slices} title="Where the money goes" />}
      <dl class="figures">
        {form.figures
          .filter(([key]) => typeof figures.outputs[key] === 'number')
          .map(([key, label]) => (
            <div key={key}>
              <dt>{t(label)}</dt>
              <dd data-output={key}>{formatOutput(key, figures.outputs[key])}</dd>
            </div>
          ))}
      </dl>
      {notes.length > 0 && (
        <ul class="notes">
          {notes.map((note) => (
            <li key={note}>{note}</li>
          ))}
        </ul>
      )}
      {figures.lineItems.length > 0 && (
        <details class="breakdown">
          <summary>{t('How this was worked out')}</summary>
          <table>
            <tbody>
              {figures.lineItems.map((item) => (
                <tr key={item.label} class={item.kind === 'total' ? 'total' : undefined}>
                  <th scope="row">{tx(item.label)}</th>
                  <td>{formatUsd(item.amount, 'unless-whole')}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      <p class="rules">
        {figures.ruleSet.label
          ? t('Rules used: {0}.', tx(figures.ruleSet.label))
          : t('Rules in force from {0}', formatDate(figures.ruleSet.effectiveDate))}
      </p>
      {props.onReport && (
        <button type="button" class="secondary" onClick={props.onReport} disabled={props.busy}>
          {t('Download the PDF report')}
        </button>
      )}
    </section>
  );
}
