// Connections and their installations, shared by the settings screen, the warehouse picker and the
// active-registry line; a change of the active connection closes the records open on every screen.
import { create } from 'zustand';
import type { ConnectionInfo, DeskOutput } from '@shared/desk/api';
import { desk, describeError } from '../lib/desk';
import { useNavigation } from './navigation';

type ConnectionList = DeskOutput<'connections.list'>;

interface ConnectionsState {
  list: ConnectionList | null;
  error: string | null;
  loading: boolean;
  /** Counts switches of the active connection (not the first load): screens are keyed on it. */
  switches: number;
  load(): Promise<void>;
  active(): ConnectionInfo | null;
}

/** The number of the last load started: only its answer is used (answers can come back out of order). */
let loads = 0;

export const useConnections = create<ConnectionsState>()((set, get) => ({
  list: null,
  error: null,
  loading: false,
  switches: 0,
  load: async () => {
    const load = ++loads;
    set({ loading: true, error: null });
    try {
      const list = await desk('connections.list', {});
      // A newer load was asked meanwhile (another connection put in use, say): its answer decides.
      if (load !== loads) return;
      const before = get().list?.activeId;
      const switched = before !== undefined && before !== list.activeId;
      set((s) => ({ list, loading: false, switches: s.switches + (switched ? 1 : 0) }));
      // Another registry is now active: what was open belonged to the previous one.
      if (switched) useNavigation.getState().closeRecords();
    } catch (error) {
      if (load === loads) set({ error: describeError(error), loading: false });
    }
  },
  active: () => {
    const list = get().list;
    return list?.connections.find((c) => c.id === list.activeId) ?? null;
  },
}));

/**
 * Resolves once the loaded list has `id` as its active connection (at once if it already has), or
 * once a load fails. Activating a connection loads the list twice (the activating screen's own load
 * and the desk's `connections.changed` event): whichever answer is used applies the switch and
 * remounts the screen, so focus moved before that would be lost with the old screen.
 */
export function whenActive(id: string): Promise<void> {
  return new Promise((resolve) => {
    const settled = (s: ConnectionsState) => s.list?.activeId === id || s.error !== null;
    if (settled(useConnections.getState())) return resolve();
    const stop = useConnections.subscribe((s) => {
      if (!settled(s)) return;
      stop();
      resolve();
    });
  });
}

/** Installations of the active connection that may see an organization's warehouse. */
export function warehouseInstallations(connection: ConnectionInfo | null) {
  return (connection?.installations ?? []).filter((i) => i.permissions.organization_warehouse !== undefined);
}
