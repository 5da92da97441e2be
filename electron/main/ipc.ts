// The IPC half of the desk API: `desk:invoke` carries one call, `desk:save-file` the handle of a
// file the desk produced, to save,
// `desk:event` the event stream. Every message is checked: it must come from the app's own page
// (app://desk/), the method must be a DeskMethod, and the input is validated by the service itself.
import type { IpcMain, IpcMainInvokeEvent } from 'electron';
import { z } from 'zod';
import { deskMethods, fileHandleId, type DeskResult, type PickedKey } from '@shared/desk/api';
import type { DeskDispatcher } from '../core/desk/dispatcher';
import { toDeskError } from '../core/desk/errors';
import { zodMessages } from '../core/platform/zod-messages';
import { APP_ORIGIN } from './protocol';

export const INVOKE_CHANNEL = 'desk:invoke';
export const SAVE_FILE_CHANNEL = 'desk:save-file';
export const IMPORT_KEY_CHANNEL = 'desk:import-key';
export const EVENT_CHANNEL = 'desk:event';

const knownMethods = new Set<string>(deskMethods);
/** Only a handle: the renderer cannot send bytes or a name to write. */
const saveFileInput = z.strictObject({ handle: fileHandleId });

export function isTrustedSender(event: Pick<IpcMainInvokeEvent, 'senderFrame'>): boolean {
  const url = event.senderFrame?.url;
  return typeof url === 'string' && url.startsWith(`${APP_ORIGIN}/`);
}

const refused = (message: string): DeskResult<never> => ({ ok: false, error: { code: 'forbidden', message } });

export function registerDeskIpc(options: {
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>;
  desk: DeskDispatcher;
  /** Saves the desk's file behind `handle` (save-file.ts). */
  saveFile: (handle: string) => Promise<{ saved: boolean; path?: string }>;
  /** Lets the user pick the app's key file in a native dialog; the page gets only its handle (key-file.ts). */
  importKeyFile: () => Promise<PickedKey | null>;
}): () => void {
  const { ipcMain, desk } = options;
  ipcMain.handle(INVOKE_CHANNEL, async (event, method: unknown, input: unknown) => {
    if (!isTrustedSender(event)) return refused('desk calls are accepted only from the desk page');
    if (typeof method !== 'string' || !knownMethods.has(method)) {
      return {
        ok: false,
        error: { code: 'invalid_input', message: `unknown desk method ${JSON.stringify(method)}` },
      } satisfies DeskResult<never>;
    }
    return desk.dispatch(method, input);
  });
  ipcMain.handle(SAVE_FILE_CHANNEL, async (event, file: unknown) => {
    if (!isTrustedSender(event)) return refused('files are saved only for the desk page');
    const parsed = saveFileInput.safeParse(file);
    if (!parsed.success) return { ok: false, error: { code: 'invalid_input', message: zodMessages(parsed.error.issues).join('; ') } };
    try {
      return { ok: true, value: await options.saveFile(parsed.data.handle) };
    } catch (error) {
      return { ok: false, error: toDeskError(error) };
    }
  });
  // No input at all: the page cannot name a path to read.
  ipcMain.handle(IMPORT_KEY_CHANNEL, async (event) => {
    if (!isTrustedSender(event)) return refused('keys are imported only for the desk page');
    try {
      return { ok: true, value: await options.importKeyFile() };
    } catch (error) {
      return { ok: false, error: toDeskError(error) };
    }
  });
  return () => {
    ipcMain.removeHandler(INVOKE_CHANNEL);
    ipcMain.removeHandler(SAVE_FILE_CHANNEL);
    ipcMain.removeHandler(IMPORT_KEY_CHANNEL);
  };
}
