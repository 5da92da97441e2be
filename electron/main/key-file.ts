// Importing an app's private key: the native open dialog runs here, in the main process, which
// reads the file (size-capped) and gives the desk the PEM; the page gets only a handle. So the key
// never enters the renderer, in either direction.
import { readFile, stat } from 'node:fs/promises';
import { basename } from 'node:path';
import type { BrowserWindow, Dialog } from 'electron';
import type { PickedKey } from '@shared/desk/api';
import { DeskFailure } from '../core/desk/errors';
import type { DeskDispatcher } from '../core/desk/dispatcher';
import { MAX_KEY_UPLOAD_BYTES } from '../core/desk/key-imports';

export async function pickKeyFileWithDialog(
  dialog: Pick<Dialog, 'showOpenDialog'>,
  window: BrowserWindow | undefined,
  keyImports: DeskDispatcher['keyImports'],
): Promise<PickedKey | null> {
  const options = {
    title: "Choose the app's private key",
    properties: ['openFile' as const],
    filters: [
      { name: 'Private key (PEM), or demo-credentials.json', extensions: ['pem', 'key', 'json'] },
      { name: 'All files', extensions: ['*'] },
    ],
  };
  const choice = window ? await dialog.showOpenDialog(window, options) : await dialog.showOpenDialog(options);
  const path = choice.filePaths[0];
  if (choice.canceled || !path) return null;
  const name = basename(path);
  const info = await stat(path);
  if (!info.isFile()) throw new DeskFailure('invalid_input', `${name} is not a file`);
  if (info.size > MAX_KEY_UPLOAD_BYTES)
    throw new DeskFailure('invalid_input', `${name} is too large to be a key file (at most ${MAX_KEY_UPLOAD_BYTES / 1000} KB)`);
  return keyImports.put(await readFile(path, 'utf8'), name);
}
