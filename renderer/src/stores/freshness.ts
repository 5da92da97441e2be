// How fresh the data on screen is. Every read reports {offline, asOf}; when one comes back offline
// the banner says so and how old the cached data is, until a read comes back online again.
import { create } from 'zustand';

interface FreshnessState {
  offline: boolean;
  /** The oldest `asOf` among the offline reads since we went offline: the age the banner shows. */
  offlineAsOf: string | null;
  recordRead(read: { offline: boolean; asOf: string | null }): void;
  setOnline(online: boolean): void;
}

function older(a: string | null, b: string | null): string | null {
  if (!a) return b;
  if (!b) return a;
  return Date.parse(a) <= Date.parse(b) ? a : b;
}

export const useFreshness = create<FreshnessState>()((set) => ({
  offline: false,
  offlineAsOf: null,
  recordRead: (read) =>
    set((state) =>
      read.offline
        ? { offline: true, offlineAsOf: state.offline ? older(state.offlineAsOf, read.asOf) : read.asOf }
        : state.offline
          ? { offline: false, offlineAsOf: null }
          : state,
    ),
  setOnline: (online) =>
    set((state) => (online ? { offline: false, offlineAsOf: null } : { offline: true, offlineAsOf: state.offlineAsOf })),
}));
