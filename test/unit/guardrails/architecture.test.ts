// The architecture rules of .dependency-cruiser.mjs fail on a tree that breaks them. Each case builds
// a small tree in a temporary folder, laid out like the real one, and cruises it with the real rule
// set: a file that crosses a line is reported under exactly its rule, and the same layout with
// allowed imports is clean. (`npm run lint` cruises the real tree with the same configuration.)
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { cruise, type ICruiseResult } from 'dependency-cruiser';
import { afterEach, describe, expect, it } from 'vitest';
import architecture from '../../../.dependency-cruiser.mjs';
import { PATH_ALIASES } from '@scripts/path-aliases.mjs';

const trees: string[] = [];
afterEach(() => {
  for (const tree of trees.splice(0)) rmSync(tree, { recursive: true, force: true });
});

/** Writes `files` (path → source) into a fresh folder and returns the rule violations found there. */
async function violations(files: Record<string, string>): Promise<{ rule: string; from: string; to: string }[]> {
  const tree = mkdtempSync(join(tmpdir(), 'architecture-'));
  trees.push(tree);
  for (const [path, source] of Object.entries(files)) {
    mkdirSync(dirname(join(tree, path)), { recursive: true });
    writeFileSync(join(tree, path), source);
  }
  // The tree's own tsconfig with the real import aliases, as the repository's tsconfig.json has them.
  const paths = Object.fromEntries(Object.entries(PATH_ALIASES).map(([alias, folder]) => [`${alias}/*`, [`./${folder}/*`]]));
  // (its baseUrl: dependency-cruiser resolves `paths` from the working directory without one)
  writeFileSync(join(tree, 'tsconfig.json'), JSON.stringify({ compilerOptions: { baseUrl: '.', paths }, files: [] }));
  const roots = [...new Set(Object.keys(files).map((path) => path.split('/')[0]!))];
  const { output } = await cruise(
    roots,
    {
      ...architecture.options,
      tsConfig: { fileName: join(tree, 'tsconfig.json') },
      baseDir: tree,
      validate: true,
      ruleSet: { forbidden: architecture.forbidden },
    },
    {},
    { tsConfig: { options: { baseUrl: tree } } },
  );
  const result = output as ICruiseResult;
  return result.summary.violations.map((v) => ({ rule: v.rule.name, from: v.from, to: v.to }));
}

const exporting = (name: string) => `export const ${name} = 1;\n`;

describe('architecture rules', () => {
  it('no import cycles, type-only imports included (one report per circle)', async () => {
    expect(
      await violations({
        'electron/core/a.ts': `import { b } from './b';\nexport const a = b;\n`,
        'electron/core/b.ts': exporting('b'),
      }),
    ).toEqual([]);
    expect(
      await violations({
        'electron/core/a.ts': `import { b } from './b';\nexport const a = b;\n`,
        'electron/core/b.ts': `import { a } from './a';\nexport const b = () => a;\n`,
      }),
    ).toEqual([{ rule: 'no-import-cycles', from: 'electron/core/a.ts', to: 'electron/core/b.ts' }]);
    const typeOnly = await violations({
      'shared/a.ts': `import type { B } from './b';\nexport type A = { b: B };\n`,
      'shared/b.ts': `import type { A } from './a';\nexport type B = { a?: A };\n`,
    });
    expect(typeOnly.map((v) => v.rule)).toEqual(['no-import-cycles']);
  });

  it('electron/core never imports the shell, the preload or the renderer', async () => {
    const base = { 'electron/main/index.ts': exporting('shell'), 'renderer/src/App.tsx': exporting('page') };
    expect(await violations({ ...base, 'electron/core/platform/clock.ts': exporting('clock') })).toEqual([]);
    expect(
      await violations({ ...base, 'electron/core/desk/x.ts': `import { shell } from '../../main/index';\nexport const x = shell;\n` }),
    ).toEqual([{ rule: 'core-not-on-the-shell', from: 'electron/core/desk/x.ts', to: 'electron/main/index.ts' }]);
    expect(
      await violations({
        ...base,
        'electron/core/desk/x.ts': `import { page } from '../../../renderer/src/App';\nexport const x = page;\n`,
      }),
    ).toEqual([{ rule: 'core-not-on-the-shell', from: 'electron/core/desk/x.ts', to: 'renderer/src/App.tsx' }]);
  });

  it('platform knows neither product; the registry never imports the desk', async () => {
    const base = {
      'electron/core/platform/clock.ts': exporting('clock'),
      'electron/core/desk/errors.ts': exporting('desk'),
      'electron/core/registry/errors.ts': exporting('registry'),
    };
    expect(
      await violations({
        ...base,
        'electron/core/registry/http/uses.ts': `import { clock } from '../../platform/clock';\nexport const x = clock;\n`,
      }),
    ).toEqual([]);
    for (const [from, spec, name, rule] of [
      ['electron/core/platform/db/x.ts', '../../registry/errors', 'registry', 'platform-is-the-floor'],
      ['electron/core/platform/db/x.ts', '../../desk/errors', 'desk', 'platform-is-the-floor'],
      ['electron/core/registry/http/x.ts', '../../desk/errors', 'desk', 'registry-never-imports-the-desk'],
    ] as const) {
      const found = await violations({ ...base, [from]: `import { ${name} } from '${spec}';\nexport const x = ${name};\n` });
      expect(
        found.map((v) => v.rule),
        `${from} -> ${spec}`,
      ).toEqual([rule]);
    }
  });

  it('the desk reaches the registry only through electron/core/registry/index.ts', async () => {
    const base = {
      'electron/core/registry/errors.ts': exporting('registry'),
      'electron/core/registry/index.ts': `export { registry } from './errors';\n`,
    };
    expect(
      await violations({ ...base, 'electron/core/desk/x.ts': `import { registry } from '../registry';\nexport const x = registry;\n` }),
    ).toEqual([]);
    const found = await violations({
      ...base,
      'electron/core/desk/x.ts': `import { registry } from '../registry/errors';\nexport const x = registry;\n`,
    });
    expect(found).toEqual([
      { rule: 'desk-uses-the-registry-through-its-entry', from: 'electron/core/desk/x.ts', to: 'electron/core/registry/errors.ts' },
    ]);
  });

  it('the rules see the folders an import alias names', async () => {
    const base = {
      'electron/core/registry/errors.ts': exporting('registry'),
      'electron/core/registry/index.ts': `export { registry } from './errors';\n`,
      'electron/core/desk/y.ts': exporting('desk'),
    };
    const found = await violations({
      ...base,
      'electron/core/desk/x.ts': `import { registry } from '@registry/errors';\nexport const x = registry;\n`,
      'electron/core/platform/clock.ts': `import { desk } from '@desk/y';\nexport const clock = desk;\n`,
      'renderer/src/App.tsx': `import { clock } from '@platform/clock';\nexport const app = clock;\n`,
      'shared/api.ts': `import { registry } from '@registry/index';\nexport const api = registry;\n`,
    });
    expect(found.map((v) => `${v.rule}: ${v.from} -> ${v.to}`).sort()).toEqual([
      'desk-uses-the-registry-through-its-entry: electron/core/desk/x.ts -> electron/core/registry/errors.ts',
      'platform-is-the-floor: electron/core/platform/clock.ts -> electron/core/desk/y.ts',
      'renderer-only-through-the-bridge: renderer/src/App.tsx -> electron/core/platform/clock.ts',
      'shared-imports-neither-side: shared/api.ts -> electron/core/registry/index.ts',
    ]);
    // Through the entry, by its alias, is allowed.
    expect(
      await violations({ ...base, 'electron/core/desk/x.ts': `import { registry } from '@registry/index';\nexport const x = registry;\n` }),
    ).toEqual([]);
  });

  it('the renderer never imports Node modules or electron/*', async () => {
    const base = { 'shared/desk/api.ts': exporting('deskApi'), 'electron/core/platform/clock.ts': exporting('clock') };
    expect(
      await violations({
        ...base,
        'renderer/src/lib/x.ts': `import { deskApi } from '../../../shared/desk/api';\nexport const x = deskApi;\n`,
      }),
    ).toEqual([]);
    for (const nodeModule of ['node:fs', 'fs', 'node:path', 'child_process']) {
      const found = await violations({ ...base, 'renderer/src/lib/x.ts': `import * as m from '${nodeModule}';\nexport const x = m;\n` });
      expect(
        found.map((v) => v.rule),
        nodeModule,
      ).toEqual(['renderer-without-node']);
    }
    expect(
      await violations({
        ...base,
        'renderer/src/lib/x.ts': `import { clock } from '../../../electron/core/platform/clock';\nexport const x = clock;\n`,
      }),
    ).toEqual([{ rule: 'renderer-only-through-the-bridge', from: 'renderer/src/lib/x.ts', to: 'electron/core/platform/clock.ts' }]);
  });

  it('shared imports neither side, the preload only shared, the shell not the renderer', async () => {
    const base = { 'electron/core/platform/clock.ts': exporting('clock'), 'renderer/src/App.tsx': exporting('page') };
    expect(
      (
        await violations({
          ...base,
          'shared/desk/x.ts': `import { clock } from '../../electron/core/platform/clock';\nexport const x = clock;\n`,
        })
      ).map((v) => v.rule),
    ).toEqual(['shared-imports-neither-side']);
    expect(
      (
        await violations({ ...base, 'electron/preload/x.ts': `import { clock } from '../core/platform/clock';\nexport const x = clock;\n` })
      ).map((v) => v.rule),
    ).toEqual(['preload-only-shared']);
    expect(
      (await violations({ ...base, 'electron/main/x.ts': `import { page } from '../../renderer/src/App';\nexport const x = page;\n` })).map(
        (v) => v.rule,
      ),
    ).toEqual(['shell-does-not-import-the-renderer']);
  });
});
