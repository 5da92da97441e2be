// One user action (a button press that calls the desk): busy while it runs, its error in words.
import { useCallback, useLayoutEffect, useRef, useState } from 'react';
import { describeError } from '../lib/desk';

export function useAction<A extends unknown[], R>(action: (...args: A) => Promise<R>) {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const latest = useRef(action);
  // Updated after each render (not during it), before any click can call `run`.
  useLayoutEffect(() => {
    latest.current = action;
  });
  const run = useCallback(async (...args: A): Promise<R | undefined> => {
    setBusy(true);
    setError(null);
    try {
      return await latest.current(...args);
    } catch (caught) {
      setError(describeError(caught));
      return undefined;
    } finally {
      setBusy(false);
    }
  }, []);
  return { run, busy, error, setError };
}
