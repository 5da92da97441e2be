// The desk service in Electron's utilityProcess: the same seam as the web host's child process
// (electron/core/desk/process), so this main process only moves windows and routes the typed desk
// API and its events, and a bulk export or a long cache read never holds the window. The OS
// keychain stays driven from here, where it works today (keytar's Electron-ABI copy).
import { utilityProcess } from 'electron';
import type { ServiceChannel } from '../core/desk/process/host-side';
import { utilityChannel } from './utility-channel';

export function forkUtilityDeskService(modulePath: string, execArgv: string[] = []): ServiceChannel {
  return utilityChannel(utilityProcess.fork(modulePath, [], { serviceName: 'Registry Desk service', stdio: 'inherit', execArgv }));
}
