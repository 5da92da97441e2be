// A demo registry at a given scale for benchmarks. Seeding --scale 100 takes a while (a minute
// idle, ten at load 14), so the seeded folder is cached under bench/.data, keyed by a hash of the
// code that shapes it: the files the seed and the registry's opening (its migrations) import,
// found by bundling them once with esbuild (about a second), so an edit elsewhere in the registry
// keeps the cache. Each caller gets its own copy, so benchmarks that write cannot disturb each other.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildSync } from 'esbuild';
import { openRegistry } from '@registry/open';
import { seedDemo } from '@registry/seed';

const root = join(import.meta.dirname, '..', '..');

/** A hash of every source file the seed and the registry's opening import (their paths and contents). */
function sourceHash(): string {
  const { metafile } = buildSync({
    entryPoints: ['electron/core/registry/seed/index.ts', 'electron/core/registry/open.ts'].map((file) => join(root, file)),
    absWorkingDir: root,
    tsconfig: join(root, 'tsconfig.core.json'),
    bundle: true,
    write: false,
    metafile: true,
    platform: 'node',
    format: 'esm',
    packages: 'external',
    outdir: join(tmpdir(), 'scaled-registry-hash'),
    logLevel: 'error',
  });
  const hash = createHash('sha256');
  for (const file of Object.keys(metafile.inputs).sort()) hash.update(file).update(readFileSync(join(root, file)));
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
