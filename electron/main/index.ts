// The Electron shell: one window on the desk page (app://desk/), IPC wiring, menus, the save
// dialog, the taskbar progress, the keychain driver. The desk service runs in a utilityProcess of
// its own (desk-service.ts), so nothing it does holds this process, which moves and paints the
// window. Everything with logic lives in electron/core/ (tested under plain Node); this file only
// connects it to Electron.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { app, BrowserWindow, clipboard, crashReporter, dialog, ipcMain, Menu, protocol, safeStorage, session, shell } from 'electron';
import { RESOURCES_ENV } from '../core/registry/certificates/resources';
import { parseLaunchOptions } from '../core/desk/launch-options';
import { DESK_CSP } from '../core/desk/page-security';
import { startDeskServiceProcess, type DeskServiceProcess } from '../core/desk/process/host-side';
import { SOURCE_ENTRY } from '../core/desk/process/node-host';
import { startShellLog, type ShellLog } from './app-log';
import { forkUtilityDeskService } from './desk-service';
import { confirmAndOpenExternal } from './external-links';
import { EVENT_CHANNEL, registerDeskIpc } from './ipc';
import { pickKeyFileWithDialog } from './key-file';
import { hostKeychain, type HostKeychain } from './keychain';
import { installPermissionHandlers } from './permissions';
import { deskMenuTemplate } from './menu';
import { APP_ORIGIN, APP_SCHEME, APP_START_URL, appSchemePrivileges, createAppProtocolHandler } from './protocol';
import { saveArtifactWithDialog } from './save-file';
import { createShellUpdates, type ShellUpdates } from './updates';
import { progressBarFor } from './sync-progress';
import { guardWebContents, mainWindowOptions } from './window';

const here = fileURLToPath(new URL('.', import.meta.url));
const RENDERER_DIR = join(here, '../renderer');
const BUILT_SYNC_WORKER = join(here, 'sync-worker.js');
const BUILT_DESK_SERVICE = join(here, 'desk-service.js');
const BUILT_CERTIFICATE_WORKER = join(here, 'certificate-worker.js');
const PRELOAD = join(here, '../preload/index.cjs');

// Must happen before `ready`.
protocol.registerSchemesAsPrivileged(appSchemePrivileges);

let desk: DeskServiceProcess | undefined;
let mainWindow: BrowserWindow | undefined;
let shellLog: ShellLog | undefined;
let updates: ShellUpdates | undefined;
let keychain: HostKeychain | undefined;

/** Updates exist only in an installed app (electron-updater reads the app-update.yml packaging writes). */
function checkForUpdates(interactive: boolean): void {
  if (!app.isPackaged) {
    if (interactive)
      void dialog.showMessageBox({ type: 'info', message: 'Updates are checked only in an installed Registry Desk.', buttons: ['OK'] });
    return;
  }
  updates ??= createShellUpdates({ version: app.getVersion(), dialog, window: () => mainWindow, log });
  void updates.check(interactive);
}

function log(line: string, level: 'info' | 'error' = 'info'): void {
  process.stderr.write(`[desk] ${line}\n`);
  shellLog?.log.write(line, level);
}

/** Remembers where the window was; the normal bounds, so un-maximizing next time lands right. */
function saveWindowState(service: DeskServiceProcess, win: BrowserWindow): Promise<void> {
  if (win.isDestroyed()) return Promise.resolve();
  return service
    .saveWindowState({ bounds: win.getNormalBounds(), maximized: win.isMaximized() })
    .catch((error: unknown) => log(`the window's place was not saved: ${(error as Error).message}`));
}

async function createWindow(service: DeskServiceProcess): Promise<BrowserWindow> {
  const saved = await service.windowState();
  const win = new BrowserWindow(mainWindowOptions({ preloadPath: PRELOAD, state: saved }));
  if (saved?.maximized) win.maximize();
  win.once('ready-to-show', () => win.show());
  win.on('close', () => void saveWindowState(service, win));
  void win.loadURL(APP_START_URL);
  return win;
}

async function start(): Promise<void> {
  // A packaged app keeps the certificate fonts outside its asar (electron-builder.config.mjs).
  if (app.isPackaged) process.env[RESOURCES_ENV] ??= join(process.resourcesPath, 'resources');
  const options = parseLaunchOptions(process.argv.slice(app.isPackaged ? 1 : 2));
  // electron-vite builds the service and its workers beside this file (electron.vite.config.ts);
  // run from source (the shell tests) both start from their TypeScript entries instead.
  const built = existsSync(BUILT_DESK_SERVICE);
  desk = await startDeskServiceProcess({
    launch: {
      dataDir: options.dataDir ?? join(app.getPath('userData'), 'desk'),
      host: 'electron',
      version: app.getVersion(),
      testClock: options.testClock,
      ...(options.remote ? { remote: options.remote } : {}),
      ...(existsSync(BUILT_SYNC_WORKER) ? { syncWorkerFile: BUILT_SYNC_WORKER } : {}),
      ...(existsSync(BUILT_CERTIFICATE_WORKER) ? { certificateWorkers: { workerFile: BUILT_CERTIFICATE_WORKER } } : {}),
      keychain: 'host',
    },
    spawn: () => (built ? forkUtilityDeskService(BUILT_DESK_SERVICE) : forkUtilityDeskService(SOURCE_ENTRY)),
    keychain: (keychain = hostKeychain({ safeStorage, userData: app.getPath('userData'), log })).driver,
    log,
  });
  const service = desk;

  protocol.handle(APP_SCHEME, createAppProtocolHandler(RENDERER_DIR));
  // The protocol answers carry the CSP already; this covers anything else the session loads.
  session.defaultSession.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: { ...details.responseHeaders, 'Content-Security-Policy': [DESK_CSP] } });
  });
  // Notifications for the app's own page; every other permission request and check is refused.
  installPermissionHandlers(session.defaultSession);

  registerDeskIpc({
    ipcMain,
    desk: service,
    saveFile: (handle) => saveArtifactWithDialog(dialog, mainWindow, app.getPath('downloads'), service.artifacts, handle),
    importKeyFile: () => pickKeyFileWithDialog(dialog, mainWindow, service.keyImports),
  });

  mainWindow = await createWindow(service);
  checkForUpdates(false);
  service.onEvent((event) => {
    const win = mainWindow;
    if (!win || win.isDestroyed()) return;
    win.webContents.send(EVENT_CHANNEL, event);
    const bar = progressBarFor(event);
    if (bar) win.setProgressBar(bar.value, { mode: bar.mode });
  });

  Menu.setApplicationMenu(
    Menu.buildFromTemplate(
      deskMenuTemplate({
        platform: process.platform,
        withDevTools: !app.isPackaged,
        syncNow: () => void service.dispatch('sync.run', {}),
        sendToPage: (event) => mainWindow?.webContents.send(EVENT_CHANNEL, event),
        openLogsFolder: () => {
          if (shellLog) void shell.openPath(shellLog.log.dir);
        },
        checkForUpdates: () => checkForUpdates(true),
        copyDiagnostics: () => {
          void clipboard.writeText(
            shellLog?.diagnostics(keychain?.describe() ?? 'not chosen yet') ?? 'no diagnostics: the log did not start',
          );
        },
      }),
    ),
  );
}

if (!app.requestSingleInstanceLock()) {
  // Another desk is running: it gets focus (second-instance below) and this one leaves.
  app.quit();
} else {
  shellLog = startShellLog(app, crashReporter);
  log(`Registry Desk ${app.getVersion()} starting`);
  app.on('second-instance', () => {
    if (!mainWindow) return;
    if (mainWindow.isMinimized()) mainWindow.restore();
    mainWindow.focus();
  });
  const links = { dialog, window: () => mainWindow, openExternal: (url: string) => shell.openExternal(url) };
  app.on('web-contents-created', (_event, contents) => guardWebContents(contents, (url) => confirmAndOpenExternal(links, url)));
  app.on('window-all-closed', () => app.quit());
  let closing = false;
  app.on('before-quit', (event) => {
    if (closing || !desk) return;
    closing = true;
    event.preventDefault();
    const service = desk;
    const win = mainWindow;
    void (win ? saveWindowState(service, win) : Promise.resolve()).then(() => service.close()).finally(() => app.quit());
  });
  app
    .whenReady()
    .then(start)
    .catch((error: unknown) => {
      log(`could not start: ${error instanceof Error ? error.message : String(error)}`, 'error');
      dialog.showErrorBox('Registry Desk could not start', error instanceof Error ? error.message : String(error));
      app.exit(1);
    });
}

export { APP_ORIGIN };
