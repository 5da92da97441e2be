// The virtualized table over a paged list store (projects, retirements, inventory credits): the
// virtualizer sized to how far the list reaches, the pages under the rows in view asked for as they
// scroll in (and again after a reload), and a new query starting at the top.
import { useEffect, useRef } from 'react';
import { useVirtualizer } from '@tanstack/react-virtual';
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

  const virtualizer = useVirtualizer({
    count: extent.rows,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => options.rowHeight,
    overscan: options.overscan,
  });
  const items = virtualizer.getVirtualItems();
  const firstIndex = items[0]?.index ?? 0;
  const lastIndex = items[items.length - 1]?.index ?? 0;

  useEffect(() => {
    if (extent.rows > 0) useList.getState().ensureRows(firstIndex, lastIndex);
  }, [useList, firstIndex, lastIndex, extent.rows, generation]);

  useEffect(() => {
    scrollRef.current?.scrollTo({ top: 0 });
  }, [queryGeneration]);

  return { scrollRef, virtualizer, items, extent };
}
