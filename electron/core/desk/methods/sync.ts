// The desk API's sync.* methods (shared/desk/api.ts).
import type { SyncStatus } from '@shared/desk/api';
import { historyEvidence, historyStatus } from '@desk/verification/status';
import { historyEvidenceFile } from '@desk/verification/evidence-file';
import type { MethodGroup, ServiceContext } from './context';

/** sync.*: the active connection's sync, its status and the registry history's evidence. */
export function syncMethods(ctx: ServiceContext): MethodGroup<'sync'> {
  const { connections, tracker, runsEnded, artifacts, clock, log, cache } = ctx;
  function syncStatus(): SyncStatus {
    const active = connections.requireActive();
    return { ...active.sync.status(), online: tracker.online, runsEnded: { ...runsEnded }, history: historyStatus(active.cache.db) };
  }
  return {
    'sync.status': () => syncStatus(),
    'sync.historyEvidence': () => historyEvidence(cache().db),
    'sync.exportEvidence': () => {
      const { cache: active, connection } = connections.requireActive();
      const file = historyEvidenceFile(active.db, connection, clock.now());
      return artifacts.put('json', file.baseName, file.bytes);
    },
    'sync.run': (input) => {
      const runtime = connections.requireActive();
      void runtime.sync.run(input.resources).catch((error: unknown) => log(`sync failed: ${(error as Error).message}`));
      return { started: true };
    },
  };
}
