// A demo registry at a given scale for benchmarks. Seeding --scale 100 takes a while (a minute
// idle, ten at load 14), so the seeded folder is cached under bench/.data, keyed by a hash of the
// code that shapes it: the source files the seed and the registry's opening (its migrations) import,
// followed through TypeScript's own import resolution, so an edit elsewhere in the registry keeps
// the cache. Each caller gets its own copy, so benchmarks that write cannot disturb each other.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { openRegistry } from '@registry/open';
import { seedDemo } from '@registry/seed';

const root = join(import.meta.dirname, '..', '..');

/** Every source file of the project that `entries` import, directly or not (type imports too), with them. */
function importClosure(entries: string[]): string[] {
  const read = ts.readConfigFile(join(root, 'tsconfig.core.json'), (path) => ts.sys.readFile(path));
  const { options } = ts.parseJsonConfigFileContent(read.config as object, ts.sys, root);
  const seen = new Set<string>();
  const queue = [...entries];
  for (let file = queue.pop(); file !== undefined; file = queue.pop()) {
    if (seen.has(file)) continue;
    seen.add(file);
    for (const { fileName } of ts.preProcessFile(readFileSync(file, 'utf8'), true, true).importedFiles) {
      const resolved = ts.resolveModuleName(fileName, file, options, ts.sys).resolvedModule;
      if (resolved && !resolved.isExternalLibraryImport) queue.push(resolved.resolvedFileName);
    }
  }
  return [...seen];
}

/** A hash of every source file the seed and the registry's opening import (their paths and contents). */
function sourceHash(): string {
  const files = importClosure(['electron/core/registry/seed/index.ts', 'electron/core/registry/open.ts'].map((file) => join(root, file)));
  const hash = createHash('sha256');
  for (const file of files.map((f) => relative(root, f)).sort()) hash.update(file).update(readFileSync(join(root, file)));
  return hash.digest('hex').slice(0, 16);
}

/** Returns a fresh copy of a seeded demo registry data dir at `scale`, and how to remove it. */
export async function scaledRegistryCopy(
  scale: number,
  log = (line: string) => console.log(line),
): Promise<{ dir: string; remove(): void; seedSeconds: number | null }> {
  const cacheRoot = join(root, 'bench', '.data');
  const cached = join(cacheRoot, `scale-${scale}-${sourceHash()}`);
  let seedSeconds: number | null = null;
  if (!existsSync(cached)) {
    mkdirSync(cacheRoot, { recursive: true });
    const building = mkdtempSync(join(cacheRoot, `building-${scale}-`));
    log(`seeding a --scale ${scale} demo registry (cached for later runs)…`);
    const started = performance.now();
    const registry = openRegistry({ dataDir: building });
    try {
      seedDemo(registry, { scale });
      registry.db.raw.pragma('wal_checkpoint(TRUNCATE)');
    } finally {
      registry.close();
    }
    seedSeconds = (performance.now() - started) / 1000;
    log(`seeded in ${seedSeconds.toFixed(1)} s`);
    renameSync(building, cached);
    // Older seeds go only once this one is in place: a seed stopped half-way leaves them (and its
    // unfinished building folder, removed by the next seed that completes).
    for (const stale of readdirSync(cacheRoot).filter(
      (n) => (n.startsWith(`scale-${scale}-`) && join(cacheRoot, n) !== cached) || n.startsWith(`building-${scale}-`),
    ))
      rmSync(join(cacheRoot, stale), { recursive: true, force: true });
  }
  const dir = mkdtempSync(join(tmpdir(), `bench-registry-${scale}-`));
  cpSync(cached, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }), seedSeconds };
}
