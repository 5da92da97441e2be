// Test support: a new test registry on SQLite starts from a copy of a registry file migrated once
// per test process, instead of running every migration again. Migrating an empty file took about
// 40 ms idle (over 100 ms on a busy machine), paid by every test that opens a registry: the
// warehouse invariants open 150, the integration tier hundreds. The migrations hold no randomness
// or time (they create tables, triggers and fixed rows), so a copy is the same file a migration
// would write; opening it still runs the quick check, the migration runner (which finds nothing to
// do) and the guard check. The migrations themselves are tested from an empty file and from each
// older version in test/unit/registry/migration-*.test.ts, which open their registries directly.
import { copyFileSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';

let templateFile: string | undefined;

/** The migrated template of this process, made on first use and removed when the process exits. */
function migratedTemplate(): string {
  if (templateFile) return templateFile;
  const dir = mkdtempSync(join(tmpdir(), 'registry-template-'));
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  // Closing the last connection checkpoints the WAL into the file and deletes it.
  openRegistry({ dataDir: dir }).close();
  const file = join(dir, REGISTRY_DB_FILE);
  const left = readdirSync(dir).filter((name) => name !== REGISTRY_DB_FILE);
  if (left.length > 0) throw new Error(`the migrated template left ${left.join(', ')} beside ${file}`);
  templateFile = file;
  return file;
}

/**
 * Puts a migrated, empty registry file into `dataDir` when the folder is empty (where opening the
 * registry would create a new one). A folder holding anything is left alone: its registry, or the
 * traces of one, are what the test is about.
 */
export function startFromMigratedTemplate(dataDir: string): void {
  if (!existsSync(dataDir) || readdirSync(dataDir).length > 0) return;
  copyFileSync(migratedTemplate(), join(dataDir, REGISTRY_DB_FILE));
}
