// A demo registry at a given scale for benchmarks. Seeding --scale 100 takes a while, so the seeded
// folder is cached under bench/.data, keyed by a hash of the code that shapes it (the seed and the
// migrations); each caller gets its own copy, so benchmarks that write cannot disturb each other.
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { openRegistry } from '@registry/open';
import { seedDemo } from '@registry/seed';

const root = join(import.meta.dirname, '..', '..');

function sourceHash(): string {
  const hash = createHash('sha256');
  const walk = (dir: string) => {
    for (const name of readdirSync(dir).sort()) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else if (name.endsWith('.ts')) hash.update(relative(root, path)).update(readFileSync(path));
    }
  };
  for (const dir of ['electron/core/registry', 'shared/registry']) walk(join(root, dir));
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
    for (const stale of readdirSync(cacheRoot).filter((n) => n.startsWith(`scale-${scale}-`)))
      rmSync(join(cacheRoot, stale), { recursive: true, force: true });
    const building = mkdtempSync(join(cacheRoot, 'building-'));
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
  }
  const dir = mkdtempSync(join(tmpdir(), `bench-registry-${scale}-`));
  cpSync(cached, dir, { recursive: true });
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }), seedSeconds };
}
