// The scrolling body of a virtualized grid table (role="table" of divs): the rows in view (plus a
// few) positioned inside a spacer as tall as the whole list, a "Loading…" placeholder where a row's
// page has not arrived yet. A row that opens something is focusable and opens on Enter or Space;
// arrow keys move between rows.
import type { ReactNode, RefObject } from 'react';
import type { VirtualItem, Virtualizer } from '@tanstack/react-virtual';
import { moveAmongRows } from '../lib/rowKeyboard';

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
}) {
  const { scrollRef, virtualizer, items, rowHeight, rowAt, cells, onOpen, rowId } = props;
  return (
    <div ref={scrollRef} className="table-scroll" role="rowgroup" onKeyDown={moveAmongRows}>
      <div className="table-spacer" style={{ height: virtualizer.getTotalSize() }}>
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
              tabIndex={opens ? 0 : undefined}
              onClick={opens ? () => onOpen(row) : undefined}
              onKeyDown={
                opens
                  ? (event) => {
                      if (event.key === 'Enter' || event.key === ' ') {
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
