// The shell's records for a user who reports "it stopped": the log file (<userData>/logs/desk.log,
// rotated, secrets removed: electron/core/desk/app-log) and Electron's crash reports, kept on this
// machine only (uploads off; Crashpad writes them under <userData>/Crashpad). The Help menu opens
// the folder and copies the diagnostics text.
import { release } from 'node:os';
import { join } from 'node:path';
import type { App, CrashReporter } from 'electron';
import { diagnosticsText } from '../core/desk/app-log/diagnostics';
import { createRotatingLog, type RotatingLog } from '../core/desk/app-log/rotating-log';
import { systemClock } from '../core/platform/clock';

export interface ShellLog {
  log: RotatingLog;
  /** The text "Copy diagnostics" puts on the clipboard. */
  diagnostics(secretStore: string): string;
}

/** Starts the log file and local crash records; call before `ready` (the crash reporter must start early). */
export function startShellLog(
  app: Pick<App, 'getPath' | 'getVersion' | 'setAppLogsPath'>,
  crashReporter: Pick<CrashReporter, 'start'>,
): ShellLog {
  const dir = join(app.getPath('userData'), 'logs');
  app.setAppLogsPath(dir);
  crashReporter.start({ uploadToServer: false, compress: true });
  const log = createRotatingLog({ dir, clock: systemClock });
  return {
    log,
    diagnostics: (secretStore) =>
      diagnosticsText({
        appVersion: app.getVersion(),
        versions: {
          electron: process.versions.electron,
          chrome: process.versions.chrome,
          node: process.versions.node,
          v8: process.versions.v8,
        },
        platform: process.platform,
        arch: process.arch,
        osRelease: release(),
        paths: { 'Data folder': app.getPath('userData'), 'Logs folder': dir, 'Crash reports': app.getPath('crashDumps') },
        secretStore,
        recentErrors: log.recentErrors(),
      }),
  };
}
