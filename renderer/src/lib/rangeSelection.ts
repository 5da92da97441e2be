// Selecting rows of a list with bulk actions the way desktop lists do: a click toggles one row and
// becomes the anchor; a shift-click sets every row from the anchor to the clicked one to the state
// the clicked row takes; "select all" selects every row listed (or clears them when all are).

export interface RangeSelection {
  selected: ReadonlySet<string>;
  /** The row of the last plain click: where a shift-click range starts. */
  anchor: string | null;
}

export const EMPTY_SELECTION: RangeSelection = { selected: new Set(), anchor: null };

/** The selection after a click on `id`'s checkbox; `order` is the rows as listed (ids). */
export function clickRow(state: RangeSelection, order: readonly string[], id: string, shiftKey: boolean): RangeSelection {
  const selected = new Set(state.selected);
  const select = !selected.has(id);
  const from = shiftKey && state.anchor !== null ? order.indexOf(state.anchor) : -1;
  const to = order.indexOf(id);
  if (from >= 0 && to >= 0) {
    const [first, last] = from <= to ? [from, to] : [to, from];
    for (const rowId of order.slice(first, last + 1)) {
      if (select) selected.add(rowId);
      else selected.delete(rowId);
    }
    // The anchor stays, so a second shift-click re-spans from the same row.
    return { selected, anchor: state.anchor };
  }
  if (select) selected.add(id);
  else selected.delete(id);
  return { selected, anchor: id };
}

/** Whether every listed row is selected (the header checkbox's state), some are, or none. */
export function allState(state: RangeSelection, order: readonly string[]): 'all' | 'some' | 'none' {
  const count = order.filter((id) => state.selected.has(id)).length;
  if (count === 0) return 'none';
  return count === order.length ? 'all' : 'some';
}

/** The header checkbox: selects every listed row, or clears them all when all were selected. */
export function toggleAll(state: RangeSelection, order: readonly string[]): RangeSelection {
  if (allState(state, order) === 'all') return EMPTY_SELECTION;
  return { selected: new Set([...state.selected, ...order]), anchor: state.anchor };
}

/** Keeps only the rows still listed (after a filter, a search, or fresh data). */
export function keepListed(state: RangeSelection, order: readonly string[]): RangeSelection {
  const listed = new Set(order);
  const selected = new Set([...state.selected].filter((id) => listed.has(id)));
  if (selected.size === state.selected.size) return state;
  return { selected, anchor: state.anchor !== null && listed.has(state.anchor) ? state.anchor : null };
}
