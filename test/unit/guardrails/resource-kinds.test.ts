// A new sync kind is one folder under electron/core/desk/resources/ and one line in the list
// (resources/list.ts; CONTRIBUTING.md, "A new sync kind"). This holds the two together: every
// folder is listed, every listed kind is its folder's own export, every sync resource has exactly
// one seed step, and no two kinds' writers or queries share a name (they become one cache object,
// where a second of a name would silently replace the first).
import { readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SYNC_RESOURCES } from '@shared/desk/api';
import { openDeskCache } from '@desk/cache';
import { createQueryBase } from '@desk/cache/queries';
import { createWriterBase } from '@desk/cache/writers';
import { RESOURCE_KINDS, SEED_STEPS } from '@desk/resources/list';

const resources = resolve(import.meta.dirname, '../../../electron/core/desk/resources');
const folders = readdirSync(resources, { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name)
  .sort();

describe('resource kinds', () => {
  const cache = openDeskCache(':memory:');
  afterAll(() => cache.close());

  it('the list names every folder of resources/, each once, and no other', () => {
    expect(folders.length).toBeGreaterThan(0);
    expect(RESOURCE_KINDS.map((kind) => kind.folder).sort()).toEqual(folders);
  });

  it.each(folders)('resources/%s/index.ts exports the kind the list names', async (folder) => {
    const module = (await import(join(resources, folder, 'index.ts'))) as { kind?: { folder?: unknown } };
    expect(module.kind, `resources/${folder}/index.ts exports no \`kind\` (resources/kind.ts, defineKind)`).toBeDefined();
    expect(module.kind!.folder).toBe(folder);
    expect(RESOURCE_KINDS as readonly unknown[]).toContain(module.kind);
  });

  it('every sync resource has exactly one seed step', () => {
    expect(SEED_STEPS.map((s) => s.resource).sort()).toEqual([...SYNC_RESOURCES].sort());
  });

  it('no two kinds share a writer or a query name', () => {
    const writerBase = createWriterBase(cache.db, () => 0);
    const queryBase = createQueryBase(cache.db);
    for (const part of ['writers', 'queries'] as const) {
      const owners = new Map<string, string[]>();
      for (const kind of RESOURCE_KINDS) {
        const made = part === 'writers' ? kind.writers(writerBase) : kind.queries(queryBase);
        for (const name of Object.keys(made)) owners.set(name, [...(owners.get(name) ?? []), kind.folder]);
      }
      const shared = [...owners].filter(([, kinds]) => kinds.length > 1);
      expect(shared, `${part} named by more than one kind`).toEqual([]);
    }
  });
});
