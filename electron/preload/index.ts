// The preload exposes exactly one thing to the page: `window.registryDesk`, the DeskBridge. The
// page never sees ipcRenderer or any Node API; the bridge passes only the method, the input and
// the file, and hands back plain data. Sandboxed preloads may import only 'electron'.
import { contextBridge, ipcRenderer } from 'electron';
import type { DeskBridge, DeskEvent, DeskResult, FileHandle, PickedKey } from '@shared/desk/api';

// Channel names are repeated here (not imported from main/ipc.ts) so the preload bundle stays tiny.
const INVOKE_CHANNEL = 'desk:invoke';
const SAVE_FILE_CHANNEL = 'desk:save-file';
const IMPORT_KEY_CHANNEL = 'desk:import-key';
const EVENT_CHANNEL = 'desk:event';

const bridge: DeskBridge = {
  host: 'electron',
  invoke: (method, input) => ipcRenderer.invoke(INVOKE_CHANNEL, method, input),
  onEvent(listener) {
    const relay = (_event: unknown, deskEvent: DeskEvent) => listener(deskEvent);
    ipcRenderer.on(EVENT_CHANNEL, relay);
    return () => {
      ipcRenderer.removeListener(EVENT_CHANNEL, relay);
    };
  },
  async importKeyFile() {
    // The main process shows the open dialog and reads the file; only a handle comes back.
    const result = (await ipcRenderer.invoke(IMPORT_KEY_CHANNEL)) as DeskResult<PickedKey | null>;
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  },
  async saveFile(file: Pick<FileHandle, 'handle'>) {
    // Only the handle crosses: the main process saves the bytes the desk itself produced.
    const result = (await ipcRenderer.invoke(SAVE_FILE_CHANNEL, { handle: file.handle })) as DeskResult<{ saved: boolean; path?: string }>;
    if (!result.ok) throw new Error(result.error.message);
    return result.value;
  },
};

contextBridge.exposeInMainWorld('registryDesk', bridge);
