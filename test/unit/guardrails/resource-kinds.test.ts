// A new sync kind is one folder under electron/core/desk/resources/ and one line in the list
// (resources/list.ts; CONTRIBUTING.md, "A new sync kind"). This holds the two together: every
// folder is listed, every listed kind is its folder's own export, every sync resource has exactly
// one seed step, and no two kinds' writers or queries share a name (they become one cache object,
// where a second of a name would silently replace the first), and no two kinds' feed parts bring the
// same resource up to date. And no module outside resources/ imports a kind's folder but the list
// (and the cache's schema type, below).
import { readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { SYNC_RESOURCES } from '@shared/desk/api';
import { openDeskCache } from '@desk/cache';
import { createQueryBase } from '@desk/cache/queries';
import { createWriterBase } from '@desk/cache/writers';
import { FEED_KINDS, FEED_RESOURCES, RESOURCE_KINDS, SEED_STEPS } from '@desk/resources/list';

const root = resolve(import.meta.dirname, '../../..');
const resources = join(root, 'electron/core/desk/resources');
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

  it("the feed's resources are sync resources, each brought up to date by one kind's feed part", () => {
    expect(FEED_RESOURCES.length).toBeGreaterThan(0);
    expect(new Set(FEED_RESOURCES).size, 'a resource named by two feed parts').toBe(FEED_RESOURCES.length);
    for (const resource of FEED_RESOURCES) expect(SYNC_RESOURCES).toContain(resource);
    for (const { folder, feed } of FEED_KINDS) expect(feed.items.length, `${folder}'s feed part takes no item type`).toBeGreaterThan(0);
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

/**
 * Modules outside resources/ that still import a kind's folder, each with the folders it names. It
 * may only shrink: a kind named here is a place a new kind must be added by hand. Only the cache's
 * schema is left: it is one type of every kind's tables (a kind that adds tables adds them there,
 * with the cache migration that makes them). The changes feed's pass and the snapshot load take
 * every kind from the list (its feed part, resources/feed-part.ts).
 */
const STILL_NAMING_KINDS: Record<string, string[]> = {
  'electron/core/desk/cache/schema.ts': ['inventories', 'organizations', 'project-answers', 'projects', 'retirements', 'warehouses'],
};

const ALIASES: Record<string, string> = { '@desk/': 'electron/core/desk/', '@registry/': 'electron/core/registry/', '@shared/': 'shared/' };
const SOURCES = ['electron', 'shared', 'renderer/src'];

function sourceFiles(dir: string): string[] {
  return readdirSync(join(root, dir), { withFileTypes: true }).flatMap((entry) => {
    const path = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.(ts|tsx|mts)$/.test(entry.name) ? [path] : [];
  });
}

/** The kinds' folders a module imports from (by alias or relative path), outside its own folder. */
function kindsImportedBy(file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const named = new Set<string>();
  for (const [, specifier] of text.matchAll(/(?:from|import)\s*\(?\s*'([^']+)'/g)) {
    const alias = Object.keys(ALIASES).find((a) => specifier!.startsWith(a));
    const target = alias
      ? ALIASES[alias]! + specifier!.slice(alias.length)
      : specifier!.startsWith('.')
        ? relative(root, resolve(root, dirname(file), specifier!))
        : null;
    const folder = target?.match(/^electron\/core\/desk\/resources\/([^/]+)(\/|$)/)?.[1];
    if (folder && folders.includes(folder)) named.add(folder);
  }
  return [...named].sort();
}

describe('a kind is named by its folder and the list only', () => {
  it('no module outside resources/ imports a kind but those still listed here, and each of those no more', () => {
    const naming: Record<string, string[]> = {};
    for (const file of SOURCES.flatMap(sourceFiles)) {
      if (file.startsWith('electron/core/desk/resources/')) continue;
      const kinds = kindsImportedBy(file);
      if (kinds.length > 0) naming[file] = kinds;
    }
    expect(naming).toEqual(STILL_NAMING_KINDS);
  });
});
