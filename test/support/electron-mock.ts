// The stand-in for the `electron` module under shell.test.ts (there is no Electron binary here): what
// the shell asks of Electron is recorded in `electron` (windows, schemes, protocol and IPC
// handlers, hooks, dialogs, menus), a utility process is a forked Node child, and waitFor waits for
// what the shell does next. The test mocks `electron` with electronModule().
import { join } from 'node:path';
import { vi } from 'vitest';

export const electron = (() => {
  const state = {
    userData: '',
    schemes: [] as unknown[],
    protocolHandlers: new Map<string, (request: Request) => Promise<Response>>(),
    ipcHandlers: new Map<string, (event: unknown, ...args: unknown[]) => Promise<unknown>>(),
    appListeners: new Map<string, (...args: unknown[]) => unknown>(),
    windows: [] as {
      options: Record<string, unknown>;
      emitter: import('node:events').EventEmitter;
      loaded: string[];
      sent: unknown[][];
      progress: unknown[][];
    }[],
    headersHook: undefined as undefined | ((details: { responseHeaders: Record<string, string[]> }, cb: (r: unknown) => void) => void),
    permissionHook: undefined as
      undefined | ((wc: unknown, permission: string, cb: (granted: boolean) => void, details: { requestingUrl: string }) => void),
    permissionCheck: undefined as undefined | ((...args: unknown[]) => boolean),
    /** The answers the next confirmations get (0 = open), and what they showed. */
    messageBoxAnswers: [] as number[],
    messageBoxes: [] as { message?: string; detail?: string }[],
    /** What the next open dialog answers. */
    openDialogAnswer: { canceled: true, filePaths: [] as string[] },
    menuTemplate: [] as unknown[],
    opened: [] as string[],
    openedPaths: [] as string[],
    clipboard: [] as string[],
    crashReporterStarts: [] as unknown[],
    logsPath: undefined as string | undefined,
    exposed: new Map<string, unknown>(),
    rendererInvokes: [] as unknown[][],
    ready: undefined as undefined | Promise<void>,
    /** Called whenever a window opens or sends something: what waitFor waits on. */
    changed: new Set<() => void>(),
    notifyChanged() {
      for (const listener of [...state.changed]) listener();
    },
    onQuit: undefined as undefined | (() => void),
    /** The desk service processes the shell started. */
    servicePids: [] as number[],
  };
  return state;
})();

/** The `electron` module the shell imports, built on the state above. */
export async function electronModule(): Promise<Record<string, unknown>> {
  const { EventEmitter: Emitter } = await import('node:events');
  const { fork } = await import('node:child_process');
  let resolveReady!: () => void;
  electron.ready = new Promise<void>((resolve) => (resolveReady = resolve));
  class BrowserWindow {
    webContents: { send: (...args: unknown[]) => void; mainFrame: unknown };
    private emitter = new Emitter();
    constructor(options: Record<string, unknown>) {
      const record = { options, emitter: this.emitter, loaded: [] as string[], sent: [] as unknown[][], progress: [] as unknown[][] };
      electron.windows.push(record);
      this.webContents = {
        send: (...args: unknown[]) => {
          record.sent.push(args);
          electron.notifyChanged();
        },
        mainFrame: {},
      };
      electron.notifyChanged();
    }
    on(name: string, listener: (...args: unknown[]) => void) {
      this.emitter.on(name, listener);
      return this;
    }
    once(name: string, listener: (...args: unknown[]) => void) {
      this.emitter.once(name, listener);
      return this;
    }
    async loadURL(url: string) {
      electron.windows.at(-1)!.loaded.push(url);
    }
    maximize() {}
    show() {}
    focus() {}
    restore() {}
    isMinimized() {
      return false;
    }
    isMaximized() {
      return true;
    }
    isDestroyed() {
      return false;
    }
    getNormalBounds() {
      return { x: 10, y: 20, width: 1111, height: 777 };
    }
    setProgressBar(...args: unknown[]) {
      electron.windows.at(-1)!.progress.push(args);
    }
  }
  return {
    app: {
      isPackaged: false,
      getPath: (name: string) => join(electron.userData, name),
      getVersion: () => '9.9.9',
      setAppLogsPath: (path: string) => (electron.logsPath = path),
      requestSingleInstanceLock: () => true,
      on: (name: string, listener: (...args: unknown[]) => unknown) => electron.appListeners.set(name, listener),
      whenReady: () => {
        resolveReady();
        return Promise.resolve();
      },
      quit: vi.fn(() => electron.onQuit?.()),
      exit: vi.fn(),
    },
    BrowserWindow,
    // A utility process is a Node child with a message port: a forked Node child stands in for it.
    utilityProcess: {
      fork: (modulePath: string, args: string[]) => {
        const child = fork(modulePath, args, { serialization: 'advanced', execArgv: [], stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
        electron.servicePids.push(child.pid!);
        return {
          postMessage: (message: unknown) => child.send(message as object),
          on: (name: string, listener: (...args: unknown[]) => void) => child.on(name, listener),
          once: (name: string, listener: (...args: unknown[]) => void) => child.once(name, listener),
          kill: () => child.kill(),
        };
      },
    },
    protocol: {
      registerSchemesAsPrivileged: (schemes: unknown[]) => electron.schemes.push(...schemes),
      handle: (scheme: string, handler: (request: Request) => Promise<Response>) => electron.protocolHandlers.set(scheme, handler),
    },
    safeStorage: {
      isEncryptionAvailable: () => false,
      getSelectedStorageBackend: () => 'basic_text',
      encryptString: () => Buffer.alloc(0),
      decryptString: () => '',
    },
    session: {
      defaultSession: {
        webRequest: { onHeadersReceived: (hook: typeof electron.headersHook) => (electron.headersHook = hook) },
        setPermissionRequestHandler: (hook: typeof electron.permissionHook) => (electron.permissionHook = hook),
        setPermissionCheckHandler: (hook: typeof electron.permissionCheck) => (electron.permissionCheck = hook),
      },
    },
    ipcMain: {
      handle: (channel: string, handler: (event: unknown, ...args: unknown[]) => Promise<unknown>) =>
        electron.ipcHandlers.set(channel, handler),
      removeHandler: (channel: string) => electron.ipcHandlers.delete(channel),
    },
    crashReporter: { start: (options: unknown) => electron.crashReporterStarts.push(options) },
    clipboard: { writeText: (text: string) => electron.clipboard.push(text) },
    shell: {
      openPath: async (path: string) => {
        electron.openedPaths.push(path);
        return '';
      },
      openExternal: async (url: string) => {
        electron.opened.push(url);
        electron.notifyChanged();
      },
    },
    dialog: {
      showSaveDialog: vi.fn(),
      showOpenDialog: async () => electron.openDialogAnswer,
      showErrorBox: vi.fn(),
      showMessageBox: async (...args: unknown[]) => {
        electron.messageBoxes.push(args.at(-1) as { message?: string; detail?: string });
        electron.notifyChanged();
        return { response: electron.messageBoxAnswers.shift() ?? 1, checkboxChecked: false };
      },
    },
    Menu: {
      buildFromTemplate: (template: unknown[]) => (electron.menuTemplate = template),
      setApplicationMenu: vi.fn(),
    },
    contextBridge: { exposeInMainWorld: (key: string, api: unknown) => electron.exposed.set(key, api) },
    ipcRenderer: {
      invoke: async (...args: unknown[]) => {
        electron.rendererInvokes.push(args);
        return { ok: true, value: { saved: false } };
      },
      on: vi.fn(),
      removeListener: vi.fn(),
    },
  };
}

export /** Resolves with `get()` once it has a value, checked again each time a window opens or is sent something. */
function waitFor<T>(get: () => T | undefined, timeoutMs = 120_000): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const check = () => {
      const value = get();
      if (value === undefined) return;
      settle();
      resolve(value);
    };
    const timer = setTimeout(() => {
      settle();
      reject(new Error('timed out'));
    }, timeoutMs);
    const settle = () => {
      clearTimeout(timer);
      electron.changed.delete(check);
    };
    electron.changed.add(check);
    check();
  });
}
