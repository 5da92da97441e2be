// The virtualized table over a paged list store (projects, retirements, inventory credits): the
// virtualizer sized to how far the list reaches, the pages under the rows in view asked for as they
// scroll in (and again after a reload), and a new query starting at the top. The list is one Tab
// stop: `active` is its row that takes focus (roving tabindex), always kept drawn, even scrolled
// out of view, so focus on it is never dropped (see lib/rowKeyboard.ts, useVirtualRowKeys).
import { useEffect, useRef, useState } from 'react';
import { defaultRangeExtractor, useVirtualizer } from '@tanstack/react-virtual';
import type { StoreApi, UseBoundStore } from 'zustand';
import type { PagedRows } from '../stores/pagedRows';

interface PagedList {
  extent: PagedRows<unknown>['extent'];
  generation: number;
  queryGeneration: number;
  ensureRows(first: number, last: number): void;
}

export function useVirtualPagedRows<S extends PagedList>(
  useList: UseBoundStore<StoreApi<S>>,
  options: { rowHeight: number; overscan: number },
) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const extent = useList((s) => s.extent);
  const generation = useList((s) => s.generation);
  const queryGeneration = useList((s) => s.queryGeneration);
  const [activeRow, setActive] = useState(0);
  const active = Math.max(0, Math.min(activeRow, extent.rows - 1));

  const virtualizer = useVirtualizer({
    count: extent.rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => options.rowHeight,
    overscan: options.overscan,
    // The active row stays drawn wherever the list has scrolled: focus on it is never dropped.
    rangeExtractor: (range) => {
      const indexes = defaultRangeExtractor(range);
      if (active >= range.count || indexes.includes(active)) return indexes;
      return [...indexes, active].sort((a, b) => a - b);
    },
  });
  const items = virtualizer.getVirtualItems();
  // The rows in view (and overscan), without the active row kept drawn far from them.
  const inView = items.filter(
    (item, i) => item.index !== active || items[i - 1]?.index === active - 1 || items[i + 1]?.index === active + 1,
  );
  const firstIndex = inView[0]?.index ?? 0;
  const lastIndex = inView[inView.length - 1]?.index ?? 0;

  useEffect(() => {
    if (extent.rows > 0) useList.getState().ensureRows(firstIndex, lastIndex);
  }, [useList, firstIndex, lastIndex, extent.rows, generation]);
  useEffect(() => {
    if (extent.rows > 0) useList.getState().ensureRows(active, active);
  }, [useList, active, extent.rows, generation]);

  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
    setActive(0);
  }, [queryGeneration]);

  return { scrollRef, virtualizer, items, extent, active, setActive };
}
