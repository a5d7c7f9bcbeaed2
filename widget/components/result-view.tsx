import { formatUsd, visibleOutputs } from '../format.ts';

const TOTALS = new Set(['totalTax', 'totalFees', 'rmd', 'commission', 'inheritanceTax']);

/** The figures: the server's stored result once there is one, the instant preview before. */
export function ResultView(props: {
  labels: Record<string, string>;
  outputs: Record<string, unknown>;
  lineItems: { label: string; amount: number }[];
  stored: boolean;
  onReport?: () => void;
}) {
  const rows = visibleOutputs(props.labels, props.outputs);
  return (
    <section class={props.stored ? 'result stored' : 'result'} aria-live="polite" aria-label="Result">
      <h3>{props.stored ? 'Your estimate' : 'Preview (updates as you type)'}</h3>
      <dl>
        {rows.map((row) => (
          <div key={row.key} class={TOTALS.has(row.key) ? 'total' : ''}>
            <dt>{row.label}</dt>
            <dd data-output={row.key}>{row.text}</dd>
          </div>
        ))}
      </dl>
      {props.lineItems.length > 0 && (
        <details>
          <summary>How this was worked out</summary>
          <table>
            <tbody>
              {props.lineItems.map((item, i) => (
                <tr key={`${i}-${item.label}`}>
                  <th scope="row">{item.label}</th>
                  <td>{formatUsd(item.amount)}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </details>
      )}
      {props.onReport && (
        <button type="button" class="secondary" onClick={props.onReport}>
          Download PDF report
        </button>
      )}
    </section>
  );
}
