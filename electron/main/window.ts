// The one desk window: its options (the security switches live here) and the guards that keep the
// page from going anywhere else. Navigation and new windows are denied outright; an https link the
// user clicks opens in the OS browser instead, once the user confirmed its host (external-links.ts).
import type { BrowserWindowConstructorOptions, WebContents } from 'electron';
import type { WindowState } from '../core/desk/settings';

export function mainWindowOptions(options: { preloadPath: string; state: WindowState | null }): BrowserWindowConstructorOptions {
  const bounds = options.state?.bounds ?? { width: 1280, height: 820 };
  return {
    ...bounds,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Registry Desk',
    backgroundColor: '#101418',
    webPreferences: {
      preload: options.preloadPath,
      contextIsolation: true,
      nodeIntegration: false,
      nodeIntegrationInSubFrames: false,
      sandbox: true,
      webSecurity: true,
      allowRunningInsecureContent: false,
      webviewTag: false,
      spellcheck: true,
    },
  };
}

/** Only https links leave the app, and only to the OS browser. */
export function isExternalLinkAllowed(url: string): boolean {
  try {
    return new URL(url).protocol === 'https:';
  } catch {
    return false;
  }
}

export function guardWebContents(contents: WebContents, openExternal: (url: string) => unknown): void {
  contents.on('will-navigate', (event) => event.preventDefault());
  contents.on('will-redirect', (event) => event.preventDefault());
  contents.on('will-attach-webview', (event) => event.preventDefault());
  contents.setWindowOpenHandler(({ url }) => {
    if (isExternalLinkAllowed(url)) void openExternal(url);
    return { action: 'deny' };
  });
}
