// The back office's renderer side: the session (who the desk acts as, what each operator endpoint
// allows now and why not), typed reads of the operator endpoints, and `version`, bumped on every
// backOffice.changed (a write was done) and finished sync, which back-office screens reload on.
// Writes go through useBackOfficeAction (components/backOffice/useBackOfficeAction.ts).
import { create } from 'zustand';
import type {
  BackOfficeAllowance,
  BackOfficeData,
  BackOfficeSession,
  OperatorEndpointName,
  OperatorReadName,
  OperatorWriteName,
} from '@shared/desk/back-office';
import { desk, describeError, onDeskEvent } from '../lib/desk';
import { useFreshness } from './freshness';

interface BackOfficeState {
  session: BackOfficeSession | null;
  /** Why the session could not be read (the desk did not answer). */
  error: string | null;
  /** Bumped by every back-office write done and every finished sync: screens reload their reads. */
  version: number;
  /** The last write done (its endpoint), for screens that reload only on some. */
  lastChange: OperatorWriteName | null;
  /** Subscribes to the desk's events; returns the unsubscribe. */
  start(): () => void;
  loadSession(): Promise<void>;
}

let loading: Promise<void> | null = null;

export const useBackOffice = create<BackOfficeState>()((set, get) => ({
  session: null,
  error: null,
  version: 0,
  lastChange: null,

  start: () => {
    void get().loadSession();
    return onDeskEvent((event) => {
      switch (event.type) {
        case 'backOffice.changed':
          set((s) => ({ version: s.version + 1, lastChange: event.endpoint }));
          void get().loadSession();
          break;
        case 'sync.finished':
        case 'backOffice.synced':
          set((s) => ({ version: s.version + 1 }));
          break;
        case 'online.changed':
          // Back online: what a screen could not read while offline is read again at once.
          if (event.online) set((s) => ({ version: s.version + 1 }));
          void get().loadSession();
          break;
        case 'connections.changed':
          void get().loadSession();
          break;
        default:
          break;
      }
    });
  },

  loadSession: () => {
    // One request at a time; a change during it is read by the next.
    const next = (loading ?? Promise.resolve()).then(async () => {
      try {
        set({ session: await desk('backOffice.session', {}), error: null });
      } catch (error) {
        set({ error: describeError(error) });
      }
    });
    loading = next;
    return next;
  },
}));

const NOT_LOADED: BackOfficeAllowance = { allowed: false, reason: 'Checking what this operator account may do…' };

/** Whether the operator may call `endpoint` now, and if not why (for a disabled action's reason). */
export function useCan(endpoint: OperatorEndpointName): BackOfficeAllowance {
  return useBackOffice((s) => (s.session ? s.session.can[endpoint] : NOT_LOADED));
}

export interface BackOfficeRead<E extends OperatorReadName> {
  data: BackOfficeData<E>;
  /** `cache`: the registry could not be reached; this is the view as last read (fetchedAt). */
  source: 'registry' | 'cache';
  fetchedAt: string;
}

/** One operator read, typed by its endpoint (throws DeskFailure with a sentence on failure). */
export async function readBackOffice<E extends OperatorReadName>(
  endpoint: E,
  request: { params?: Record<string, string>; query?: Record<string, string | number> } = {},
): Promise<BackOfficeRead<E>> {
  const answer = await desk('backOffice.read', { endpoint, ...request });
  // A view answered from the desk's saved copy: the offline banner says how old it is.
  if (answer.source === 'cache') useFreshness.getState().recordRead({ offline: true, asOf: answer.fetchedAt });
  return { data: answer.data as BackOfficeData<E>, source: answer.source, fetchedAt: answer.fetchedAt };
}
