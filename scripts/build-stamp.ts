// Whether a build in out/ was made from the sources as they are now. `npm test` builds out/web and
// out/renderer beside the lint (npm run build:test-bundles); the integration tier and the end-to-end
// tier then reuse them instead of building them again. A stamp is a digest of every file the build
// can be made from (its source folders, the build scripts and aliases, the TypeScript settings, the
// locked packages) and of the Node that built it, so any edit, added or removed file means a fresh
// build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const BUILD_FILES = [
  'scripts/build-stamp.ts',
  'scripts/build-web-desk.ts',
  'scripts/build-web-page.ts',
  'scripts/path-aliases.mjs',
  'package.json',
  'package-lock.json',
];
const STAMP = '.built-from';

function inputFiles(root: string, folders: string[]): string[] {
  const files = folders.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name))),
  );
  const settings = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  return [...files, ...BUILD_FILES, ...settings].sort();
}

/** A digest of the names and contents of the files under `folders` and the build's own files, and of the Node version. */
export function buildInputsDigest(root: string, folders: string[]): string {
  const hash = createHash('sha256').update(`${process.version}\0`);
  for (const file of inputFiles(root, folders)) {
    hash.update(`${file}\0`);
    hash.update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '(missing)');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Records that `outDir` holds a build of the inputs whose digest is `digest`. */
export function writeBuildStamp(outDir: string, digest: string): void {
  writeFileSync(join(outDir, STAMP), `${digest}\n`);
}

/** True when `outDir` holds every one of `outputs` and was built from inputs of digest `digest`. */
export function buildIsCurrent(outDir: string, outputs: string[], digest: string): boolean {
  const stamp = join(outDir, STAMP);
  if (!existsSync(stamp) || !outputs.every((file) => existsSync(file))) return false;
  return readFileSync(stamp, 'utf8').trim() === digest;
}
