// Named app events. The page announces what it has finished doing, both as a data attribute on
// <html> (for a state that persists: `data-sync-state="done"`) and as a DOM CustomEvent on window
// (for a moment: 'desk:sync-finished'). End-to-end tests and the bench wait on these, never on time.

export type SignalName =
  | 'desk:ready'
  | 'desk:sync-finished'
  | 'desk:sync-failed'
  | 'desk:projects-loaded'
  | 'desk:retirements-loaded'
  | 'desk:warehouse-loaded'
  | 'desk:reservation-settled'
  | 'desk:file-saved'
  /** A back-office action ended (detail: endpoint, phase: done | refused | unsure | failed). */
  | 'desk:back-office-action'
  /** A back-office screen has shown its data (detail: screen). */
  | 'desk:back-office-loaded';

export function announce(name: SignalName, detail: Record<string, unknown> = {}): void {
  window.dispatchEvent(new CustomEvent(name, { detail }));
}

/** Sets `data-<key>` on <html>; keys are camelCase (dataset rules). */
export function setPageState(key: string, value: string): void {
  document.documentElement.dataset[key] = value;
}
