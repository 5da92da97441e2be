// Saves a file the desk produced (certificate PDF, CSV export) where the user chooses, through the
// native save dialog. The suggested name is reduced to a plain base name: the registry or a
// compromised page must not pick the folder.
import { writeFile } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { BrowserWindow, Dialog } from 'electron';
import type { FileOutput } from '../../shared/desk/api';

export function safeFileName(name: string): string {
  const base = basename(name.replaceAll('\\', '/'))
    .replace(/[\u0000-\u001f<>:"|?*]/g, '_')
    .trim();
  return base === '' || base === '.' || base === '..' ? 'download' : base.slice(0, 200);
}

export async function saveFileWithDialog(
  dialog: Pick<Dialog, 'showSaveDialog'>,
  window: BrowserWindow | undefined,
  downloadsDir: string,
  file: FileOutput,
): Promise<{ saved: boolean; path?: string }> {
  const options = { defaultPath: join(downloadsDir, safeFileName(file.filename)) };
  const choice = window ? await dialog.showSaveDialog(window, options) : await dialog.showSaveDialog(options);
  if (choice.canceled || !choice.filePath) return { saved: false };
  await writeFile(choice.filePath, Buffer.from(file.base64, 'base64'));
  return { saved: true, path: choice.filePath };
}
