// A details panel beside a list (a retirement's, an organization's): it takes focus when it opens (its
// heading, so reading starts there and its actions are a few Tab presses away) and gives it back to
// the row it was opened from when it closes (see usePanelFocus).
import { useEffect, useRef, type ReactNode, type RefObject } from 'react';
import { focusElement, returnFocusSoon } from '../lib/focus';

/**
 * Focus into the panel `ref` when it opens for `openKey` (its heading), and on closing or switching
 * to another record, back to what `returnTo` finds (the row's control), else `fallback` (the list).
 */
export function usePanelFocus(
  ref: RefObject<HTMLElement | null>,
  openKey: string,
  returnTo: () => Element | null | undefined,
  fallback: () => Element | null | undefined,
): void {
  const latest = useRef({ returnTo, fallback });
  useEffect(() => {
    latest.current = { returnTo, fallback };
  });
  useEffect(() => {
    focusElement(ref.current?.querySelector('h2') ?? ref.current);
    const { returnTo: back, fallback: list } = latest.current;
    return () => returnFocusSoon(back, list);
  }, [ref, openKey]);
}

export function DetailsPanel({
  label,
  openKey,
  returnTo,
  fallback,
  children,
}: {
  label: string;
  openKey: string;
  returnTo: () => Element | null | undefined;
  fallback: () => Element | null | undefined;
  children: ReactNode;
}) {
  const ref = useRef<HTMLElement>(null);
  usePanelFocus(ref, openKey, returnTo, fallback);
  return (
    <aside ref={ref} className="card details" aria-label={label}>
      {children}
    </aside>
  );
}

/**
 * A details panel's heading with its "×" (named "Close details"). `closesOnEscape` marks the button
 * that the screen's Escape handling presses.
 */
export function DetailsHeader({
  title,
  onClose,
  closesOnEscape = false,
}: {
  title: ReactNode;
  onClose: () => void;
  closesOnEscape?: boolean;
}) {
  return (
    <header className="details-header">
      <h2>{title}</h2>
      <button
        type="button"
        className="icon-button"
        title="Close details"
        data-closes-on-escape={closesOnEscape || undefined}
        onClick={onClose}
      >
        <span aria-hidden="true">×</span>
        <span className="visually-hidden">Close details</span>
      </button>
    </header>
  );
}
