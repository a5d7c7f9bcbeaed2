import { useState } from 'preact/hooks';
import { api, type PortalError } from '../api.ts';
import { ErrorNote, Link } from '../components/ui.tsx';
import { canManage } from '../session.ts';
import { useResource } from '../use-resource.ts';

/**
 * The law under the firm's calculators changed: each change it was told of and has not dismissed,
 * in one line, with a link to "What changed". Says nothing when there is none.
 */
export function RuleNoticesBanner() {
  const { data, reload } = useResource(() => api.get('rule-notices'));
  const [error, setError] = useState<PortalError | null>(null);
  if (!data || data.data.length === 0) return null;
  const manage = canManage();
  const dismiss = async (id: string) => {
    try {
      await api.post('rule-notices/dismiss', { id });
      setError(null);
      await reload();
    } catch (e) {
      setError(e as PortalError);
    }
  };
  return (
    <section class="notice rules-banner" aria-labelledby="rules-banner-title">
      <h2 id="rules-banner-title">The law under your calculators changed</h2>
      <ul>
        {data.data.map((change) => (
          <li key={change.id}>
            <p>
              {change.summary} <Link href="/portal/rules#what-changed">What changed</Link>
              {manage ? (
                <>
                  {' '}
                  <button type="button" class="button button-small" onClick={() => dismiss(change.id)}>
                    Dismiss<span class="visually-hidden"> the notice: {change.figure}</span>
                  </button>
                </>
              ) : null}
            </p>
          </li>
        ))}
      </ul>
      <p class="muted small">Results and leads already stored keep the rules they were computed with.</p>
      <ErrorNote error={error} />
    </section>
  );
}
