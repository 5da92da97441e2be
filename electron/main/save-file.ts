// Saves a file the desk produced itself (certificate PDF, CSV export), by its handle, where the
// user chooses through the native save dialog. The renderer sends only the handle: the bytes and
// the name come from the desk (electron/core/desk/artifacts.ts), the dialog offers only the file's
// kind, and its extension is forced onto whatever path the user typed.
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { BrowserWindow, Dialog } from 'electron';
import { FILE_KINDS, withExtension } from '../core/desk/artifacts';
import type { DeskDispatcher } from '../core/desk/dispatcher';
import { DeskFailure } from '../core/desk/errors';

export async function saveArtifactWithDialog(
  dialog: Pick<Dialog, 'showSaveDialog'>,
  window: BrowserWindow | undefined,
  downloadsDir: string,
  artifacts: DeskDispatcher['artifacts'],
  handle: string,
): Promise<{ saved: boolean; path?: string }> {
  const file = await artifacts.get(handle);
  if (!file) throw new DeskFailure('not_found', 'This file is no longer available: export or download it again');
  const kind = FILE_KINDS[file.kind];
  const options = {
    defaultPath: join(downloadsDir, file.filename),
    filters: [{ name: kind.filterName, extensions: [kind.extension] }],
  };
  const choice = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return { saved: false };
  const path = withExtension(choice.filePath, kind.extension);
  await writeFile(path, file.bytes);
  artifacts.release(handle);
  return { saved: true, path };
}
