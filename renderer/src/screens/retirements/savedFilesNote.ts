// The sentence that confirms a bulk certificate download: how many were saved, as what, where. The
// desk window's save dialog reports each file's path; the browser saves to its own downloads folder
// and tells the page nothing more, so that is what the sentence says there.

export interface SavedFile {
  filename: string;
  /** Where the desk window saved it; absent in the browser. */
  path?: string;
}

const LISTED = 3;

function folderOf(path: string): string {
  const cut = Math.max(path.lastIndexOf('/'), path.lastIndexOf('\\'));
  return cut > 0 ? path.slice(0, cut) : path;
}

function nameOf(file: SavedFile): string {
  if (!file.path) return file.filename;
  const cut = Math.max(file.path.lastIndexOf('/'), file.path.lastIndexOf('\\'));
  return file.path.slice(cut + 1);
}

function where(files: SavedFile[]): string {
  const folders = [...new Set(files.map((f) => (f.path ? folderOf(f.path) : null)))];
  if (folders.every((f) => f === null)) return "this browser's downloads folder";
  return folders.length === 1 && folders[0] ? folders[0] : 'the folders you chose';
}

function names(files: SavedFile[]): string {
  const shown = files.slice(0, LISTED).map(nameOf).join(', ');
  return files.length > LISTED ? `${shown} and ${files.length - LISTED} more` : shown;
}

/**
 * `certificates` is how many certificates the saved files hold (a combined file holds them all);
 * `notSaved` counts the saves the user cancelled.
 */
export function savedFilesNote(files: SavedFile[], certificates: number, notSaved = 0): string | null {
  const cancelled = notSaved > 0 ? ` ${notSaved} not saved (the save was cancelled).` : '';
  if (files.length === 0) return notSaved > 0 ? `Nothing was saved: the save was cancelled.` : null;
  const count = `${certificates} certificate${certificates === 1 ? '' : 's'}`;
  const what = files.length === 1 && certificates > 1 ? `in one file, ${names(files)}` : `as ${names(files)}`;
  return `Saved ${count} ${what}, to ${where(files)}.${cancelled}`;
}
