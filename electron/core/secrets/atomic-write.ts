// Replaces a file so that readers (and a crash at any moment) see either the old content or the new
// one, never a mix: write a temp file in the same directory, fsync it, rename it over the target.
import { randomBytes } from 'node:crypto';
import { open, rename, unlink } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

export async function writeFileAtomic(path: string, data: string | Uint8Array, mode: number): Promise<void> {
  const dir = dirname(path);
  const temp = join(dir, `.${basename(path)}.${randomBytes(6).toString('hex')}.tmp`);
  // 'wx': never follow or reuse an existing file; the mode is set at creation so the content is
  // never readable by others, even for an instant (chmod again in case the umask cut bits).
  const handle = await open(temp, 'wx', mode);
  try {
    try {
      await handle.chmod(mode);
      await handle.writeFile(data);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await unlink(temp).catch(() => undefined);
    throw error;
  }
  await syncDirectory(dir);
}

// Makes the rename itself durable. Not supported everywhere (Windows cannot open a directory), so
// a failure here is not an error: the content is already safely in place.
async function syncDirectory(dir: string): Promise<void> {
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
