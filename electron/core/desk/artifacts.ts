// Files the desk produced itself (retirement certificates, CSV exports), kept in memory until the
// host saves them. The renderer only ever holds a handle: it cannot hand the host bytes or a name
// to write. The desk names each file, the kind fixes its extension (the save dialog's filter, and
// forced onto whatever path the user typed: `cert.pdf.exe` becomes `cert.pdf.exe.pdf`), and sizes
// are capped. Handles expire after ARTIFACT_TTL_MS (on the injected clock) and at most
// MAX_ARTIFACTS are kept, oldest dropped first.
import { randomBytes } from 'node:crypto';
import type { FileHandle, FileKind } from '@shared/desk/api';
import type { Clock } from '../platform/clock';
import { DeskFailure } from './errors';

export const FILE_KINDS: Record<FileKind, { mimeType: string; extension: string; filterName: string; maxBytes: number }> = {
  pdf: { mimeType: 'application/pdf', extension: 'pdf', filterName: 'PDF document', maxBytes: 20 * 1024 * 1024 },
  csv: { mimeType: 'text/csv', extension: 'csv', filterName: 'CSV file', maxBytes: 256 * 1024 * 1024 },
  // Bundled certificates (up to 500 of them).
  zip: { mimeType: 'application/zip', extension: 'zip', filterName: 'ZIP archive', maxBytes: 256 * 1024 * 1024 },
  // The history evidence of a connection (verification/evidence-file.ts).
  json: { mimeType: 'application/json', extension: 'json', filterName: 'JSON file', maxBytes: 64 * 1024 * 1024 },
};
export const ARTIFACT_TTL_MS = 15 * 60_000;
export const MAX_ARTIFACTS = 32;

export interface Artifact extends FileHandle {
  bytes: Uint8Array;
  mimeType: string;
}

export interface ArtifactStore {
  /** Keeps `bytes` as a file of `kind` named `baseName` (made safe, its extension forced); too large throws. */
  put(kind: FileKind, baseName: string, bytes: Uint8Array): FileHandle;
  /** The file behind a handle, or undefined when it is unknown or expired. */
  get(handle: string): Artifact | undefined;
  /** Forgets a file once saved. */
  release(handle: string): void;
}

/** A plain base name: no folders, no control or reserved characters, at most 150 characters. */
export function safeBaseName(name: string): string {
  const base = (name.replaceAll('\\', '/').split('/').pop() ?? '')
    .replace(/[\u0000-\u001f\u007f<>:"|?*]/g, '_')
    .replace(/^[.\s]+|[.\s]+$/g, '')
    .slice(0, 150);
  return base === '' ? 'download' : base;
}

/** `name` ending in `.<extension>` (case-insensitive); appended when it does not. */
export function withExtension(name: string, extension: string): string {
  return name.toLowerCase().endsWith(`.${extension}`) ? name : `${name}.${extension}`;
}

export function createArtifactStore(clock: Clock): ArtifactStore {
  const files = new Map<string, Artifact & { expiresAt: number }>();
  const prune = () => {
    const now = clock.now();
    for (const [handle, file] of files) if (file.expiresAt <= now) files.delete(handle);
    while (files.size > MAX_ARTIFACTS) files.delete(files.keys().next().value!);
  };
  return {
    put(kind, baseName, bytes) {
      const spec = FILE_KINDS[kind];
      if (bytes.byteLength > spec.maxBytes) {
        throw new DeskFailure(
          'conflict',
          `The ${kind.toUpperCase()} file is ${Math.ceil(bytes.byteLength / 1024 / 1024)} MB, more than the ${spec.maxBytes / 1024 / 1024} MB the desk saves`,
        );
      }
      const handle = randomBytes(18).toString('base64url');
      const filename = withExtension(safeBaseName(baseName), spec.extension);
      files.set(handle, {
        handle,
        kind,
        filename,
        size: bytes.byteLength,
        bytes,
        mimeType: spec.mimeType,
        expiresAt: clock.now() + ARTIFACT_TTL_MS,
      });
      prune();
      return { handle, kind, filename, size: bytes.byteLength };
    },
    get(handle) {
      prune();
      const file = files.get(handle);
      if (!file) return undefined;
      const { expiresAt: _expiresAt, ...artifact } = file;
      return artifact;
    },
    release(handle) {
      files.delete(handle);
    },
  };
}
