// The application menu and its accelerators. Sync runs in the main process; Find and the view
// shortcuts are the renderer's business, so they are sent to it as `menu.command` desk events.
import type { MenuItemConstructorOptions } from 'electron';
import type { DeskEvent } from '@shared/desk/api';

export const VIEW_COUNT = 6;

export function deskMenuTemplate(options: {
  platform: NodeJS.Platform;
  syncNow: () => void;
  sendToPage: (event: DeskEvent) => void;
  withDevTools: boolean;
  /** Help menu: the folder holding the log file and crash records. */
  openLogsFolder: () => void;
  /** Help menu: versions, paths and the last errors, onto the clipboard. */
  copyDiagnostics: () => void;
  /** Help menu: check for a signed update now. */
  checkForUpdates: () => void;
}): MenuItemConstructorOptions[] {
  const views: MenuItemConstructorOptions[] = Array.from({ length: VIEW_COUNT }, (_, index) => ({
    label: `View ${index + 1}`,
    accelerator: `CmdOrCtrl+${index + 1}`,
    click: () => options.sendToPage({ type: 'menu.command', command: 'navigate', view: index + 1 }),
  }));
  const template: MenuItemConstructorOptions[] = [
    ...(options.platform === 'darwin' ? [{ role: 'appMenu' as const }] : []),
    {
      label: 'File',
      submenu: [
        { label: 'Sync now', accelerator: 'CmdOrCtrl+R', click: options.syncNow },
        { type: 'separator' },
        options.platform === 'darwin' ? { role: 'close' } : { role: 'quit' },
      ],
    },
    {
      label: 'Edit',
      submenu: [
        { role: 'undo' },
        { role: 'redo' },
        { type: 'separator' },
        { role: 'cut' },
        { role: 'copy' },
        { role: 'paste' },
        { role: 'selectAll' },
        { type: 'separator' },
        { label: 'Find', accelerator: 'CmdOrCtrl+F', click: () => options.sendToPage({ type: 'menu.command', command: 'find' }) },
      ],
    },
    {
      label: 'Go',
      submenu: views,
    },
    {
      label: 'View',
      submenu: [
        { role: 'resetZoom' },
        { role: 'zoomIn' },
        { role: 'zoomOut' },
        { type: 'separator' },
        { role: 'togglefullscreen' },
        ...(options.withDevTools ? [{ role: 'toggleDevTools' as const }] : []),
      ],
    },
    {
      role: 'help',
      submenu: [
        { label: 'Open logs folder', click: options.openLogsFolder },
        { label: 'Copy diagnostics', click: options.copyDiagnostics },
        { type: 'separator' },
        { label: 'Check for updates…', click: options.checkForUpdates },
      ],
    },
  ];
  return template;
}
