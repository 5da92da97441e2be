// Small React hooks shared by screens.
import { useCallback, useEffect, useRef, useState } from 'react';

/** The value, but only after it has stopped changing for `delayMs` (search as you type). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = window.setTimeout(() => setDebounced(value), delayMs);
    return () => window.clearTimeout(timer);
  }, [value, delayMs]);
  return debounced;
}

/** How long typing must pause before a search runs. */
export const SEARCH_DEBOUNCE_MS = 150;

/**
 * The text of a search box bound to a list store: the box shows what is typed at once, and the
 * store's query follows once typing pauses (`current` is read fresh so a store change made
 * elsewhere, e.g. a reload restoring the query, is not overwritten).
 */
export function useSearchText(initial: string, current: () => string, apply: (text: string) => void): [string, (text: string) => void] {
  const [text, setText] = useState(initial);
  const debounced = useDebounced(text, SEARCH_DEBOUNCE_MS);
  // The store's text this box last applied or showed: a different one was set elsewhere ("Clear
  // filters" clearing the search), and the box shows it. Its own typing never comes back as a change.
  const [known, setKnown] = useState(initial);
  if (initial !== known) {
    setKnown(initial);
    if (initial !== debounced) setText(initial);
  }
  useEffect(() => {
    if (debounced !== current()) apply(debounced);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- current() is read fresh when the text settles; it is not a trigger
  }, [debounced, apply]);
  return [text, setText];
}

// One shared one-second ticker for every countdown on screen, aligned to whole seconds so all
// countdowns change together instead of drifting apart.
const tickListeners = new Set<(now: number) => void>();
let tickTimer: number | null = null;
function scheduleTick() {
  tickTimer = window.setTimeout(
    () => {
      const now = Date.now();
      for (const listener of tickListeners) listener(now);
      scheduleTick();
    },
    1000 - (Date.now() % 1000) + 5,
  );
}

export function useNow(): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    tickListeners.add(setNow);
    if (tickTimer === null) scheduleTick();
    return () => {
      tickListeners.delete(setNow);
      if (tickListeners.size === 0 && tickTimer !== null) {
        window.clearTimeout(tickTimer);
        tickTimer = null;
      }
    };
  }, []);
  return now;
}

/**
 * Runs an async loader when its deps change and keeps {data, error, loading}; ignores stale answers.
 * A change of deps (another record) clears what is shown; a reload, or a new `refreshKey` (a sync
 * brought new data), keeps the data on screen while it refreshes, so open dialogs stay put.
 */
export function useLoader<T>(
  load: () => Promise<T>,
  deps: readonly unknown[],
  refreshKey: unknown = 0,
): { data: T | null; error: unknown; loading: boolean; reload: () => void } {
  const [state, setState] = useState<{ data: T | null; error: unknown; loading: boolean }>({ data: null, error: null, loading: true });
  const [attempt, setAttempt] = useState(0);
  const lastDeps = useRef<readonly unknown[] | null>(null);
  useEffect(() => {
    let current = true;
    const sameRecord =
      lastDeps.current !== null && lastDeps.current.length === deps.length && deps.every((d, i) => Object.is(d, lastDeps.current![i]));
    lastDeps.current = deps;
    setState((previous) => ({ data: sameRecord ? previous.data : null, error: null, loading: true }));
    load().then(
      (data) => current && setState({ data, error: null, loading: false }),
      (error: unknown) => current && setState((previous) => ({ data: previous.data, error, loading: false })),
    );
    return () => {
      current = false;
    };
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the caller's deps say when to load again; `load` is a new closure each render
  }, [...deps, attempt, refreshKey]);
  const reload = useCallback(() => setAttempt((n) => n + 1), []);
  return { ...state, reload };
}
