// Updates in the shell: electron-updater (generic provider) behind SignedUpdates, which installs
// nothing whose manifest lacks the pinned key's Ed25519 signature (electron/core/desk/updates).
// Checked once at start in a packaged app, and from Help > Check for updates; every refusal is
// shown with its reason, and nothing installs until the user chooses to restart.
import type { BrowserWindow, Dialog } from 'electron';
import electronUpdater from 'electron-updater';
import { parseUpdateInfo } from 'electron-updater/out/providers/Provider.js';
import { SignedUpdates, type UpdateNotice } from '../core/desk/updates/signed-update';
import { channelFileFor, UPDATE_FEED_URL } from '../core/desk/updates/update-feed';
import { PINNED_UPDATE_KEY } from '../core/desk/updates/update-key';

export interface ShellUpdates {
  /** `interactive`: the user asked (say "up to date" and failures too); otherwise only news and refusals. */
  check(interactive: boolean): Promise<void>;
}

export function createShellUpdates(options: {
  version: string;
  dialog: Pick<Dialog, 'showMessageBox'>;
  window: () => BrowserWindow | undefined;
  log: (line: string, level?: 'info' | 'error') => void;
}): ShellUpdates {
  const channelFile = channelFileFor(process.platform);
  const updates = new SignedUpdates({
    // electron-updater builds its updater on first access (it needs a packaged app): only here.
    updater: electronUpdater.autoUpdater,
    currentVersion: options.version,
    feedUrl: UPDATE_FEED_URL,
    channelFile,
    pinnedKey: PINNED_UPDATE_KEY,
    parseManifest: (text) => parseUpdateInfo(text, channelFile, new URL(channelFile, UPDATE_FEED_URL)),
  });

  async function show(notice: UpdateNotice, interactive: boolean): Promise<void> {
    const win = options.window();
    const box = (settings: Parameters<Dialog['showMessageBox']>[0]) =>
      win ? options.dialog.showMessageBox(win, settings) : options.dialog.showMessageBox(settings);
    if (notice.kind === 'ready') {
      const answer = await box({
        type: 'info',
        message: `Registry Desk ${notice.version} is ready to install`,
        detail: 'It was downloaded and its signature checked. Restart now to install it, or later from Help > Check for updates.',
        buttons: ['Restart and install', 'Later'],
        defaultId: 0,
        cancelId: 1,
      });
      if (answer.response === 0) updates.install();
      return;
    }
    if (notice.kind === 'refused') {
      options.log(`update refused (${notice.reason}): ${notice.message}`, 'error');
      await box({ type: 'warning', message: 'An update was refused', detail: notice.message, buttons: ['OK'] });
      return;
    }
    if (notice.kind === 'failed') options.log(notice.message, 'error');
    if (!interactive) return;
    const message = notice.kind === 'up-to-date' ? `Registry Desk ${notice.version} is the latest version` : 'Updates could not be checked';
    await box({ type: 'info', message, detail: notice.kind === 'failed' ? notice.message : undefined, buttons: ['OK'] });
  }

  return {
    check: async (interactive) => show(await updates.check(), interactive),
  };
}
