// The renderer's one way to the desk: `getBridge()` returns the Electron preload's bridge when the
// page runs in the desk window, and the loopback web host's bridge when it runs in a browser.
import type { DeskBridge } from '@shared/desk/api';
import { createWebBridge } from './web';

declare global {
  interface Window {
    registryDesk?: DeskBridge;
  }
}

let bridge: DeskBridge | undefined;

export function getBridge(): DeskBridge {
  bridge ??= window.registryDesk ?? createWebBridge();
  return bridge;
}

export type { DeskBridge };
