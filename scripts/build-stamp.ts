// Whether out/web was built from the sources as they are now. The integration tier's global setup
// builds out/web, and `npm test` then runs the end-to-end tier, whose global setup needs the same
// bundles: with this stamp it reuses them instead of building them again. The stamp is a digest of
// every file the bundles can be built from (the desk's and registry's sources, the build script and
// its aliases, the TypeScript settings, the locked packages) and of the Node that built them, so
// any edit, added or removed file means a fresh build.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';

const SOURCE_FOLDERS = ['electron', 'shared'];
const BUILD_FILES = ['scripts/build-web-desk.ts', 'scripts/path-aliases.mjs', 'package.json', 'package-lock.json'];
const STAMP = '.built-from';

function inputFiles(root: string): string[] {
  const files = SOURCE_FOLDERS.flatMap((folder) =>
    readdirSync(join(root, folder), { recursive: true, withFileTypes: true })
      .filter((entry) => entry.isFile())
      .map((entry) => relative(root, join(entry.parentPath, entry.name))),
  );
  const settings = readdirSync(root).filter((name) => /^tsconfig.*\.json$/.test(name));
  return [...files, ...BUILD_FILES, ...settings].sort();
}

/** A digest of the file names and contents out/web is built from, and of the Node version. */
export function webDeskInputsDigest(root: string): string {
  const hash = createHash('sha256').update(`${process.version}\0`);
  for (const file of inputFiles(root)) {
    hash.update(`${file}\0`);
    hash.update(existsSync(join(root, file)) ? readFileSync(join(root, file)) : '(missing)');
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** Records that `outDir` holds a build of the inputs whose digest is `digest`. */
export function writeWebDeskStamp(outDir: string, digest: string): void {
  writeFileSync(join(outDir, STAMP), `${digest}\n`);
}

/** True when `outDir` holds every one of `outputs` and was built from inputs of digest `digest`. */
export function webDeskIsCurrent(outDir: string, outputs: string[], digest: string): boolean {
  const stamp = join(outDir, STAMP);
  if (!existsSync(stamp) || !outputs.every((file) => existsSync(file))) return false;
  return readFileSync(stamp, 'utf8').trim() === digest;
}
