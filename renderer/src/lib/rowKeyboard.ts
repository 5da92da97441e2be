// Arrow keys move between a list's rows: Up and Down go to the row above or below (to the same
// control in it, the checkbox to the checkbox, when focus is on one), Home and End to the first and
// last row drawn. Spread the returned handler on the element holding the rows (a tbody). A
// virtualized list uses useVirtualRowKeys instead: one Tab stop, keys over the whole list.
import type { FocusEvent, KeyboardEvent } from 'react';
import { flushSync } from 'react-dom';

const ROW = 'tr, [role="row"]';
const FOCUSABLE = 'button, input, select, a[href], [tabindex]:not([tabindex="-1"])';

function rowsOf(container: HTMLElement): HTMLElement[] {
  return [...container.querySelectorAll<HTMLElement>(ROW)];
}

export function moveAmongRows(event: KeyboardEvent<HTMLElement>): void {
  if (!['ArrowDown', 'ArrowUp', 'Home', 'End'].includes(event.key) || event.altKey || event.ctrlKey || event.metaKey) return;
  const target = event.target as HTMLElement;
  // Keys inside a text field or a select are theirs.
  if (target.closest('input:not([type="checkbox"]):not([type="radio"]), select, textarea')) return;
  const row = target.closest<HTMLElement>(ROW);
  if (!row || !event.currentTarget.contains(row)) return;
  // Virtualized rows are positioned, not in DOM order: order them by where they are drawn.
  const rows = rowsOf(event.currentTarget)
    .filter((r) => !r.classList.contains('table-row-placeholder') && !r.classList.contains('row-placeholder') && !r.hidden)
    .sort((a, b) => a.getBoundingClientRect().top - b.getBoundingClientRect().top);
  const index = rows.indexOf(row);
  const next = event.key === 'Home' ? rows[0] : event.key === 'End' ? rows.at(-1) : rows[index + (event.key === 'ArrowDown' ? 1 : -1)];
  if (!next || next === row) return;
  event.preventDefault();
  const controls = [...row.querySelectorAll<HTMLElement>(FOCUSABLE)];
  const position = controls.indexOf(target);
  const counterpart = position >= 0 ? next.querySelectorAll<HTMLElement>(FOCUSABLE)[position] : undefined;
  const destination =
    counterpart ?? (next.tabIndex >= -1 && next.hasAttribute('tabindex') ? next : next.querySelector<HTMLElement>(FOCUSABLE));
  destination?.focus();
  destination?.scrollIntoView({ block: 'nearest' });
}

export function useRowKeyboard(): { onKeyDown: (event: KeyboardEvent<HTMLElement>) => void } {
  return { onKeyDown: moveAmongRows };
}

/** What a virtualized list gives useVirtualRowKeys (useVirtualPagedRows returns all of it). */
export interface VirtualRows {
  scrollRef: { current: HTMLElement | null };
  virtualizer: { scrollToIndex(index: number, options?: { align?: 'auto' | 'start' | 'center' | 'end' }): void };
  extent: { rows: number };
  active: number;
  setActive(index: number): void;
}

/** The selector of rows with an aria-rowindex (that one, if given). */
function indexed(rowIndex?: number): string {
  const attribute = rowIndex === undefined ? '[aria-rowindex]' : `[aria-rowindex="${rowIndex}"]`;
  return `tr${attribute}, [role="row"]${attribute}`;
}

/** A row's index in the list (aria-rowindex counts the header as 1). */
function indexOf(row: Element): number {
  return Number(row.getAttribute('aria-rowindex')) - 2;
}

/**
 * A virtualized list as one Tab stop (issue 19 item 3): its active row is the only one in the Tab
 * order (roving tabindex: `tabIndexOf`), and Up/Down, PageUp/PageDown, Home/End move it over the
 * whole list, not only the rows drawn: the next row is drawn at once (it becomes the active one, kept
 * drawn), takes focus (the same control in it when focus is on one, the checkbox to the checkbox),
 * and the list scrolls to it. Spread `onKeyDown` and `onFocus` on the element holding the rows.
 */
export function useVirtualRowKeys({ scrollRef, virtualizer, extent, active, setActive }: VirtualRows) {
  const onKeyDown = (event: KeyboardEvent<HTMLElement>) => {
    const keys = ['ArrowDown', 'ArrowUp', 'PageDown', 'PageUp', 'Home', 'End'];
    if (!keys.includes(event.key) || event.altKey || event.ctrlKey || event.metaKey || extent.rows === 0) return;
    const target = event.target as HTMLElement;
    if (target.closest('input:not([type="checkbox"]):not([type="radio"]), select, textarea')) return;
    const row = target.closest<HTMLElement>(ROW);
    if (!row || !event.currentTarget.contains(row) || !row.hasAttribute('aria-rowindex')) return;
    const from = indexOf(row);
    const box = scrollRef.current;
    const firstRow = event.currentTarget.querySelector<HTMLElement>(indexed());
    const page = Math.max(1, Math.floor((box?.clientHeight ?? 0) / Math.max(1, firstRow?.offsetHeight ?? 1)) - 1);
    const step: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    const to = Math.max(
      0,
      Math.min(extent.rows - 1, event.key === 'Home' ? 0 : event.key === 'End' ? extent.rows - 1 : from + (step[event.key] ?? 0)),
    );
    event.preventDefault();
    if (to === from) return;
    const position = [...row.querySelectorAll<HTMLElement>(FOCUSABLE)].indexOf(target);
    const container = event.currentTarget;
    // Drawn now (the active row always is), focused, then scrolled to: focus never leaves the list.
    flushSync(() => setActive(to));
    const next = container.querySelector<HTMLElement>(indexed(to + 2));
    const counterpart = position >= 0 ? next?.querySelectorAll<HTMLElement>(FOCUSABLE)[position] : undefined;
    (counterpart ?? next)?.focus({ preventScroll: true });
    virtualizer.scrollToIndex(to, { align: 'auto' });
  };
  // A row focused another way (a click, Tab back into the list) becomes the active one.
  const onFocus = (event: FocusEvent<HTMLElement>) => {
    const row = event.target.closest(ROW);
    if (row?.hasAttribute('aria-rowindex') && event.currentTarget.contains(row)) {
      const index = indexOf(row);
      if (index >= 0 && index !== active) setActive(index);
    }
  };
  return { onKeyDown, onFocus, tabIndexOf: (index: number) => (index === active ? 0 : -1) };
}
