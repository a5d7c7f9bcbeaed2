import { useState } from 'preact/hooks';
import type { PortalError } from '../api.ts';

/**
 * One change a page makes: runs it, keeps its error for the note next to the control, and tells
 * whether it is still running (buttons disable themselves meanwhile).
 */
export function useAction() {
  const [error, setError] = useState<PortalError | null>(null);
  const [busy, setBusy] = useState(false);
  const run = async <T>(work: () => Promise<T>): Promise<T | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await work();
    } catch (e) {
      setError(e as PortalError);
      return undefined;
    } finally {
      setBusy(false);
    }
  };
  return { error, busy, run, clear: () => setError(null) };
}
