// Types of electron/core/platform/atomic-write.mjs (plain JavaScript: scripts/electron-native.mjs runs it
// before anything is compiled).

/**
 * Replaces the file at `path` atomically and durably: readers and a crash see the old content or
 * the new, never a mix. The parent directory must exist. `mode` defaults to 0o600 and is applied
 * whatever the umask. On failure the target is left as it was and no temporary file remains.
 */
export function writeFileAtomic(path: string, data: string | Uint8Array, options?: { mode?: number }): Promise<void>;

/** writeFileAtomic for callers that must finish before they return. */
export function writeFileAtomicSync(path: string, data: string | Uint8Array, options?: { mode?: number }): void;
