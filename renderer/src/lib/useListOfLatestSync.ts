// A paged list shows the data of the latest sync: loaded on its screen's first showing, and again
// (keeping the rows on screen until their fresh copy lands) when a sync has ended since it was
// read. Coming back to the screen otherwise keeps the list, and its scroll position, as it was.
import { useEffect } from 'react';
import type { StoreApi, UseBoundStore } from 'zustand';
import { useSync } from '../stores/sync';

interface SyncedList {
  /** 0 until the list is first asked for. */
  generation: number;
  /** The sync data version the list's current generation reads. */
  dataVersion: number;
  refresh(options?: { keepRows: boolean }): void;
}

export function useListOfLatestSync<S extends SyncedList>(useList: UseBoundStore<StoreApi<S>>): void {
  const dataVersion = useSync((s) => s.dataVersion);
  useEffect(() => {
    const list = useList.getState();
    if (list.generation === 0 || list.dataVersion !== dataVersion) list.refresh({ keepRows: true });
  }, [useList, dataVersion]);
}
