// Connections and their installations, shared by the settings screen and the warehouse picker.
import { create } from 'zustand';
import type { ConnectionInfo, DeskOutput } from '../../../shared/desk/api';
import { desk, describeError } from '../lib/desk';

type ConnectionList = DeskOutput<'connections.list'>;

interface ConnectionsState {
  list: ConnectionList | null;
  error: string | null;
  loading: boolean;
  load(): Promise<void>;
  active(): ConnectionInfo | null;
}

export const useConnections = create<ConnectionsState>()((set, get) => ({
  list: null,
  error: null,
  loading: false,
  load: async () => {
    set({ loading: true, error: null });
    try {
      set({ list: await desk('connections.list', {}), loading: false });
    } catch (error) {
      set({ error: describeError(error), loading: false });
    }
  },
  active: () => {
    const list = get().list;
    return list?.connections.find((c) => c.id === list.activeId) ?? null;
  },
}));

/** Installations of the active connection that may see an organization's warehouse. */
export function warehouseInstallations(connection: ConnectionInfo | null) {
  return (connection?.installations ?? []).filter((i) => i.permissions.organization_warehouse !== undefined);
}
