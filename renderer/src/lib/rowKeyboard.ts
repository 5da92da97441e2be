// Arrow keys move between a list's rows: Up and Down go to the row above or below (to the same
// control in it, the checkbox to the checkbox, when focus is on one), Home and End to the first and
// last row drawn. Spread the returned handler on the element holding the rows (a tbody, or a
// virtualized row group).
import type { KeyboardEvent } from 'react';

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
