// Opening a link in the OS browser. Links on the page come from registry data (project websites,
// documents), so none is opened silently: the user sees the host (as the browser will show it,
// punycode for international names, so a look-alike cannot pass for another) and confirms first.
import type { BrowserWindow, Dialog, MessageBoxOptions } from 'electron';
import { isExternalLinkAllowed } from './window';

export interface ExternalLinkDeps {
  dialog: Pick<Dialog, 'showMessageBox'>;
  window: () => BrowserWindow | undefined;
  openExternal: (url: string) => Promise<void>;
}

/** What the confirmation shows for `url`. */
export function externalLinkQuestion(url: string): MessageBoxOptions {
  const { host } = new URL(url);
  return {
    type: 'question',
    buttons: ['Open in browser', 'Cancel'],
    defaultId: 1,
    cancelId: 1,
    noLink: true,
    title: 'Open a link from the registry',
    message: `Open ${host} in your browser?`,
    detail: `This link comes from the registry's data and leads to ${host}:\n${url.length > 300 ? `${url.slice(0, 300)}…` : url}`,
  };
}

/** Asks, then opens an https link in the OS browser; anything else is never opened. Resolves whether it opened. */
export async function confirmAndOpenExternal(deps: ExternalLinkDeps, url: string): Promise<boolean> {
  if (!isExternalLinkAllowed(url)) return false;
  const question = externalLinkQuestion(url);
  const window = deps.window();
  const { response } = window ? await deps.dialog.showMessageBox(window, question) : await deps.dialog.showMessageBox(question);
  if (response !== 0) return false;
  await deps.openExternal(url);
  return true;
}
