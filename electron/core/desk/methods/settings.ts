// The desk API's system.* and settings.* methods (shared/desk/api.ts).
import type { MethodGroup, ServiceContext } from './context';

/** system.* and settings.*: what the desk is, and its settings (the sync interval restarts the sync). */
export function settingsMethods(ctx: ServiceContext): MethodGroup<'system' | 'settings'> {
  const { options, paths, settings, connections, hub, syncIntervalMs } = ctx;
  return {
    'system.info': () => ({ version: options.version, host: options.host, dataDir: paths.dataDir }),

    'settings.get': () => {
      const { theme, syncIntervalMinutes } = settings.get();
      return { theme, syncIntervalMinutes };
    },
    'settings.set': (input) => {
      const before = settings.get().syncIntervalMinutes;
      const next = settings.update({
        ...(input.theme ? { theme: input.theme } : {}),
        ...(input.syncIntervalMinutes ? { syncIntervalMinutes: input.syncIntervalMinutes } : {}),
      });
      const { active } = connections;
      if (active && next.syncIntervalMinutes !== before && options.autoSync !== false) {
        active.sync.stop();
        active.sync.start(syncIntervalMs(), { immediately: false });
      }
      // Every other open window or tab shows the new settings too.
      hub.publish({ type: 'settings.changed', theme: next.theme, syncIntervalMinutes: next.syncIntervalMinutes });
      return { theme: next.theme, syncIntervalMinutes: next.syncIntervalMinutes };
    },
  };
}
