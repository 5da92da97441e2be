// The scrolling body of a virtualized grid table (role="table" of divs): the rows in view (plus a
// few) positioned inside a spacer as tall as the whole list, a "Loading…" placeholder where a row's
// page has not arrived yet. A row that opens something opens on Enter or Space. Given `keys`
// (useVirtualRowKeys), the list is one Tab stop: only its active row (and that row's own controls) is
// in the Tab order, and arrow keys, PageUp/PageDown and Home/End move it over the whole list;
// without, every opening row is a Tab stop and arrow keys move between the rows drawn.
import { useEffect, useRef, type FocusEvent, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import type { VirtualItem, Virtualizer } from '@tanstack/react-virtual';
import { moveAmongRows } from '../lib/rowKeyboard';

const CONTROLS = 'button, a[href], input, select, textarea';

export function VirtualRowGroup<Row>(props: {
  scrollRef: RefObject<HTMLDivElement | null>;
  virtualizer: Virtualizer<HTMLDivElement, Element>;
  items: VirtualItem[];
  rowHeight: number;
  rowAt(index: number): Row | undefined;
  cells(row: Row): ReactNode;
  onOpen?(row: Row): void;
  /** A row's id, set as data-row-id (so focus can come back to the row a page was opened from). */
  rowId?(row: Row): string;
  /** The list as one Tab stop (lib/rowKeyboard.ts, useVirtualRowKeys). */
  keys?: {
    onKeyDown(event: KeyboardEvent<HTMLElement>): void;
    onFocus(event: FocusEvent<HTMLElement>): void;
    tabIndexOf(index: number): number;
  };
}) {
  const { scrollRef, virtualizer, items, rowHeight, rowAt, cells, onOpen, rowId, keys } = props;
  const spacer = useRef<HTMLDivElement>(null);
  // Roving tabindex for the controls inside rows (a project link in a cell): only the active row's are Tab stops.
  useEffect(() => {
    if (!keys) return;
    for (const row of spacer.current?.querySelectorAll<HTMLElement>('[role="row"]') ?? []) {
      const active = row.tabIndex === 0;
      for (const control of row.querySelectorAll<HTMLElement>(CONTROLS)) {
        if (active) control.removeAttribute('tabindex');
        else control.tabIndex = -1;
      }
    }
  });
  return (
    <div ref={scrollRef} className="table-scroll" role="rowgroup" onKeyDown={keys ? keys.onKeyDown : moveAmongRows} onFocus={keys?.onFocus}>
      <div ref={spacer} className="table-spacer" style={{ height: virtualizer.getTotalSize() }}>
        {items.map((item) => {
          const row = rowAt(item.index);
          const opens = row !== undefined && onOpen !== undefined;
          return (
            <div
              key={item.key}
              role="row"
              // Row 1 is the header.
              aria-rowindex={item.index + 2}
              data-row-id={row !== undefined ? rowId?.(row) : undefined}
              className={row === undefined ? 'table-row table-row-placeholder' : opens ? 'table-row table-row-link' : 'table-row'}
              style={{ transform: `translateY(${item.start}px)`, height: rowHeight }}
              tabIndex={keys ? keys.tabIndexOf(item.index) : opens ? 0 : undefined}
              onClick={opens ? () => onOpen(row) : undefined}
              onKeyDown={
                opens
                  ? (event) => {
                      if (event.target === event.currentTarget && (event.key === 'Enter' || event.key === ' ')) {
                        event.preventDefault();
                        onOpen(row);
                      }
                    }
                  : undefined
              }
            >
              {row !== undefined ? (
                cells(row)
              ) : (
                <span role="cell" className="cell-loading">
                  Loading…
                </span>
              )}
            </div>
          );
        })}
      </div>
    </div>
  );
}
