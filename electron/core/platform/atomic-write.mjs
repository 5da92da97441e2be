// @ts-check
// Replaces a file so that readers, and a crash at any moment, see either the old content or the
// new one, never a mix or a half-written file: the new content goes to a temporary file in the same
// directory, is flushed to disk, and is renamed over the target; then the directory is flushed so
// the rename itself survives a power cut. The one helper for every file the app replaces (the
// desk's JSON files, the encrypted key file, the demo credentials, the Electron build record).
//
// Plain JavaScript with types beside it (atomic-write.d.mts): scripts/electron-native.mjs uses it
// too, and runs under plain Node before anything is compiled. Node built-ins only.
import { randomBytes } from 'node:crypto';
import { closeSync, fchmodSync, fsyncSync, openSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/** Owner only: what the app writes describes its user's registries and keys. */
const DEFAULT_FILE_MODE = 0o600;

/**
 * A fresh name beside the target. Created with 'wx', so an existing file (or a symlink planted
 * there) is never followed nor reused, and two writers never share one.
 * @param {string} path
 */
function temporaryPathFor(path) {
  return join(dirname(path), `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
}

/**
 * @param {string} path
 * @param {string | Uint8Array} data
 * @param {{ mode?: number }} [options]
 * @returns {Promise<void>}
 */
export async function writeFileAtomic(path, data, options = {}) {
  const mode = options.mode ?? DEFAULT_FILE_MODE;
  const temporary = temporaryPathFor(path);
  // The mode is set at creation, so the content is never readable by others even for an instant;
  // chmod again because the umask may have removed bits the caller asked for.
  const handle = await open(temporary, 'wx', mode);
  try {
    try {
      await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temporary, path);
  } catch (error) {
    await unlink(temporary).catch(() => undefined);
    throw error;
  }
  await syncDirectoryAsync(dirname(path));
}

/**
 * The same guarantees, for callers that must finish before they return (settings stores, the seed).
 * @param {string} path
 * @param {string | Uint8Array} data
 * @param {{ mode?: number }} [options]
 * @returns {void}
 */
export function writeFileAtomicSync(path, data, options = {}) {
  const mode = options.mode ?? DEFAULT_FILE_MODE;
  const temporary = temporaryPathFor(path);
  const fd = openSync(temporary, 'wx', mode);
  try {
    try {
      fchmodSync(fd, mode);
      writeFileSync(fd, data);
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
    renameSync(temporary, path);
  } catch (error) {
    try {
      unlinkSync(temporary);
    } catch {
      // already gone
    }
    throw error;
  }
  syncDirectory(dirname(path));
}

/**
 * Makes the rename durable. Not possible everywhere (Windows cannot open a directory), so a
 * failure is not an error: the content is already in place.
 * @param {string} dir
 */
async function syncDirectoryAsync(dir) {
  try {
    const handle = await open(dir, 'r');
    try {
      await handle.sync();
    } finally {
      await handle.close();
    }
  } catch {
    // best effort only
  }
}

/** @param {string} dir */
function syncDirectory(dir) {
  let fd;
  try {
    fd = openSync(dir, 'r');
    fsyncSync(fd);
  } catch {
    // best effort only
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}
