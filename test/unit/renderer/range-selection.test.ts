// Shift-click ranges and select-all over a list's rows.
import { describe, expect, it } from 'vitest';
import { allState, clickRow, EMPTY_SELECTION, keepListed, toggleAll } from '@renderer/lib/rangeSelection';

const order = ['a', 'b', 'c', 'd', 'e'];
const ids = (s: { selected: ReadonlySet<string> }) => [...s.selected].sort();

describe('range selection', () => {
  it('toggles one row on a plain click and spans from the anchor on a shift-click', () => {
    let s = clickRow(EMPTY_SELECTION, order, 'b', false);
    expect(ids(s)).toEqual(['b']);
    s = clickRow(s, order, 'd', true);
    expect(ids(s)).toEqual(['b', 'c', 'd']);
    // Upwards from the same anchor, and a shift-click on a selected row clears the span.
    s = clickRow(s, order, 'a', true);
    expect(ids(s)).toEqual(['a', 'b', 'c', 'd']);
    s = clickRow(s, order, 'c', true);
    expect(ids(s)).toEqual(['a', 'd']);
  });

  it('treats a shift-click without an anchor as a plain click', () => {
    expect(ids(clickRow(EMPTY_SELECTION, order, 'c', true))).toEqual(['c']);
  });

  it('selects all listed rows, then none', () => {
    let s = clickRow(EMPTY_SELECTION, order, 'a', false);
    expect(allState(s, order)).toBe('some');
    s = toggleAll(s, order);
    expect(allState(s, order)).toBe('all');
    s = toggleAll(s, order);
    expect(allState(s, order)).toBe('none');
  });

  it('forgets rows that are no longer listed', () => {
    const s = toggleAll(clickRow(EMPTY_SELECTION, order, 'e', false), order);
    const kept = keepListed(s, ['a', 'b']);
    expect(ids(kept)).toEqual(['a', 'b']);
    expect(kept.anchor).toBeNull();
  });
});
