// Small JSON files of the desk (connections, settings): read through a zod schema so a hand-edited
// or half-written file is a clear error naming the file, never a crash deep inside the app; written
// atomically (atomic-write.mjs) so a crash mid-write leaves the previous version intact.
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { dirname } from 'node:path';
import type { z } from 'zod';
import { writeFileAtomicSync } from '../platform/atomic-write.mjs';
import { zodMessages } from '../platform/zod-messages';

export class CorruptFileError extends Error {
  constructor(
    readonly path: string,
    readonly problems: string[],
  ) {
    super(`${path} is not a valid desk file (${problems.join('; ')}); fix or delete it and start again`);
    this.name = 'CorruptFileError';
  }
}

/** Reads and validates `path`; `undefined` when the file does not exist. */
export function readJsonFile<S extends z.ZodType>(path: string, schema: S): z.output<S> | undefined {
  if (!existsSync(path)) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (error) {
    throw new CorruptFileError(path, [`not JSON: ${(error as Error).message}`]);
  }
  const result = schema.safeParse(parsed);
  if (!result.success) throw new CorruptFileError(path, zodMessages(result.error.issues));
  return result.data;
}

export function writeJsonFile(path: string, value: unknown): void {
  mkdirSync(dirname(path), { recursive: true });
  // 0o600: the files hold no secrets, but they describe the user's registries; keep them private.
  writeFileAtomicSync(path, `${JSON.stringify(value, null, 2)}\n`, { mode: 0o600 });
}
