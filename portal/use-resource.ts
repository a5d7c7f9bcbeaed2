import { useCallback, useEffect, useState } from 'preact/hooks';
import type { PortalError } from './api.ts';

/** Loads data for a page; `reload` fetches again after a change. */
export function useResource<T>(load: () => Promise<T>, deps: unknown[] = []) {
  const [data, setData] = useState<T | undefined>(undefined);
  const [error, setError] = useState<PortalError | undefined>(undefined);
  const run = useCallback(() => {
    setError(undefined);
    return load().then(setData, (e: PortalError) => setError(e));
    // biome-ignore lint/correctness/useExhaustiveDependencies: the caller names the dependencies
  }, deps);
  useEffect(() => {
    run();
  }, [run]);
  return { data, error, reload: run };
}
