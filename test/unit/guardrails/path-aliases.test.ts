// The import aliases (scripts/path-aliases.mjs): tsconfig's `paths` name the same folders, the codemod
// (scripts/codemods/path-alias.mjs) rewrites only imports that climb two or more folders into a
// folder with an alias and changes nothing on a second run, and the ESLint rule
// local/no-climbing-imports reports (and fixes) exactly what the codemod would rewrite.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { Linter } from 'eslint';
import tseslint from 'typescript-eslint';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { rewrite } from '@scripts/codemods/path-alias.mjs';
import climbing from '@scripts/eslint/no-climbing-imports.mjs';
import { PATH_ALIASES } from '@scripts/path-aliases.mjs';

const root = resolve(import.meta.dirname, '../../..');
const at = resolve(root, 'electron/core/registry/http/handlers/__check__.ts');

const SOURCE = [
  `import { systemClock } from '../../../platform/clock';`,
  `import type { Api } from "../../../../../shared/desk/api";`,
  `export { problem } from '../../errors';`,
  `import { route } from '../routes';`,
  `import pkg from '../../../../../package.json';`,
  `const lazy = () => import('../../../desk/index');`,
  `type Row = import('../../../platform/db/index').Row;`,
  `const file = new URL('../../../platform/clock.ts', import.meta.url);`,
  `export const used = [systemClock, route, pkg, lazy, file] as unknown as [Api, Row];`,
  '',
].join('\n');

const EXPECTED = [
  `import { systemClock } from '@platform/clock';`,
  `import type { Api } from "@shared/desk/api";`,
  `export { problem } from '@registry/errors';`,
  `import { route } from '../routes';`,
  `import pkg from '../../../../../package.json';`,
  `const lazy = () => import('@desk/index');`,
  `type Row = import('@platform/db/index').Row;`,
  `const file = new URL('../../../platform/clock.ts', import.meta.url);`,
  `export const used = [systemClock, route, pkg, lazy, file] as unknown as [Api, Row];`,
  '',
].join('\n');

describe('path aliases', () => {
  it("tsconfig's paths are the alias list", () => {
    const { config } = ts.readConfigFile(resolve(root, 'tsconfig.base.json'), ts.sys.readFile) as {
      config: { compilerOptions: { paths: Record<string, string[]> } };
    };
    const fromList = Object.fromEntries(Object.entries(PATH_ALIASES).map(([alias, folder]) => [`${alias}/*`, [`./${folder}/*`]]));
    expect(config.compilerOptions.paths).toEqual(fromList);
    // and no alias shadows an installed package scope
    const pkg = JSON.parse(readFileSync(resolve(root, 'package.json'), 'utf8')) as Record<string, Record<string, string>>;
    const installed = Object.keys({ ...pkg.dependencies, ...pkg.devDependencies, ...pkg.optionalDependencies });
    expect(installed.filter((name) => Object.keys(PATH_ALIASES).some((alias) => name.startsWith(`${alias}/`)))).toEqual([]);
  });

  it('the codemod rewrites imports that climb two or more folders into an aliased folder, once', () => {
    const first = rewrite(at, SOURCE);
    expect(first.text).toBe(EXPECTED);
    expect(first.count).toBe(5);
    expect(rewrite(at, first.text)).toEqual({ text: EXPECTED, count: 0 });
  });

  it('the lint rule reports what the codemod rewrites, and fixes it the same way', () => {
    const linter = new Linter({ configType: 'flat' });
    const config = [
      {
        files: ['**/*.ts'],
        languageOptions: { parser: tseslint.parser },
        plugins: { local: climbing },
        rules: { 'local/no-climbing-imports': 'error' as const },
      },
    ];
    const messages = linter.verify(SOURCE, config, { filename: at });
    expect(messages.map((m) => `${m.line}: ${m.message}`)).toEqual([
      "1: '../../../platform/clock' climbs 3 folders: import '@platform/clock' (the path alias of that room).",
      "2: '../../../../../shared/desk/api' climbs 5 folders: import '@shared/desk/api' (the path alias of that room).",
      "3: '../../errors' climbs 2 folders: import '@registry/errors' (the path alias of that room).",
      "6: '../../../desk/index' climbs 3 folders: import '@desk/index' (the path alias of that room).",
      "7: '../../../platform/db/index' climbs 3 folders: import '@platform/db/index' (the path alias of that room).",
    ]);
    expect(linter.verifyAndFix(SOURCE, config, { filename: at }).output).toBe(EXPECTED);
  });
});
