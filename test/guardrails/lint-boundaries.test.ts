// The architecture rules of eslint.config.js fail on a file that crosses a boundary. Each case lints
// a snippet as if it stood at a path in the tree, with the real config (type-aware rules turned off:
// the boundaries do not need types, and the snippets belong to no tsconfig), and expects exactly the
// boundary rule to fire; the same place with an allowed import is clean. The rule against sleeping
// in tests is proven the same way.
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../..');
const BOUNDARY_RULES = ['no-restricted-imports', 'import-x/no-restricted-paths', 'import-x/no-nodejs-modules', 'import-x/no-cycle'];

const eslint = new ESLint({
  cwd: root,
  // The cycle fixtures are ignored by `npm run lint` (they break the rule on purpose).
  ignore: false,
  overrideConfig: [{ files: ['**/*.ts', '**/*.tsx'], ...tseslint.configs.disableTypeChecked }],
});

/** The problems of the given rules on `code` placed at `relativePath`. */
async function problems(relativePath: string, code: string, rules: string[]): Promise<{ rule: string | null; message: string }[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, relativePath) });
  const fatal = result!.messages.filter((m) => m.fatal);
  expect(fatal, 'the snippet parses').toEqual([]);
  return result!.messages.filter((m) => rules.includes(m.ruleId ?? '')).map((m) => ({ rule: m.ruleId, message: m.message }));
}

const boundaryProblems = (relativePath: string, code: string) => problems(relativePath, code, BOUNDARY_RULES);

const uses = (names: string) => `\nexport const used = [${names}];\n`;

describe('architecture rules', () => {
  it('electron/core never imports electron, nor the shell or the renderer', async () => {
    const at = 'electron/core/desk/__check__.ts';
    expect(await boundaryProblems(at, `import { systemClock } from '../clock';${uses('systemClock')}`)).toEqual([]);
    expect(await boundaryProblems(at, `import { app } from 'electron';${uses('app')}`)).toEqual([
      { rule: 'no-restricted-imports', message: expect.stringContaining('electron/core never imports Electron') },
    ]);
    expect(await boundaryProblems(at, `import type { BrowserWindow } from 'electron/main';\nexport type W = BrowserWindow;\n`)).toEqual([
      { rule: 'no-restricted-imports', message: expect.stringContaining('electron/core never imports Electron') },
    ]);
    expect(await boundaryProblems(at, `import * as shell from '../../main/index';${uses('shell')}`)).toEqual([
      { rule: 'import-x/no-restricted-paths', message: expect.stringContaining('electron/core never imports Electron') },
    ]);
    expect(await boundaryProblems(at, `import * as page from '../../../renderer/src/App';${uses('page')}`)).toEqual([
      { rule: 'import-x/no-restricted-paths', message: expect.any(String) },
    ]);
  });

  it('the renderer never imports Node modules or electron/*', async () => {
    const at = 'renderer/src/lib/__check__.ts';
    expect(await boundaryProblems(at, `import { deskApi } from '../../../shared/desk/api';${uses('deskApi')}`)).toEqual([]);
    for (const nodeModule of ['node:fs', 'fs', 'node:path', 'child_process']) {
      expect(await boundaryProblems(at, `import * as m from '${nodeModule}';${uses('m')}`), nodeModule).toEqual([
        { rule: 'import-x/no-nodejs-modules', message: expect.stringContaining(nodeModule.replace('node:', '')) },
      ]);
    }
    expect(await boundaryProblems(at, `import * as core from '../../../electron/core/clock';${uses('core')}`)).toEqual([
      { rule: 'import-x/no-restricted-paths', message: expect.stringContaining('only through the bridge') },
    ]);
    expect(await boundaryProblems(at, `import * as shell from '../../../electron/main/index';${uses('shell')}`)).toEqual([
      { rule: 'import-x/no-restricted-paths', message: expect.stringContaining('only through the bridge') },
    ]);
  });

  it('electron/core/registry never imports http, desk or web-host', async () => {
    const at = 'electron/core/registry/__check__.ts';
    expect(await boundaryProblems(at, `import { systemClock } from '../clock';${uses('systemClock')}`)).toEqual([]);
    for (const upward of ['../http/app', '../desk/errors', '../web-host/server']) {
      expect(await boundaryProblems(at, `import * as m from '${upward}';${uses('m')}`), upward).toEqual([
        { rule: 'import-x/no-restricted-paths', message: expect.stringContaining('The registry is the bottom layer') },
      ]);
    }
    // The rest of the core may build on the registry.
    expect(await boundaryProblems('electron/core/http/__check__.ts', `import * as r from '../registry/errors';${uses('r')}`)).toEqual([]);
  });

  it('shared imports neither side, and the preload only shared', async () => {
    expect(await boundaryProblems('shared/desk/__check__.ts', `import * as c from '../../electron/core/clock';${uses('c')}`)).toEqual([
      { rule: 'import-x/no-restricted-paths', message: expect.stringContaining('shared/ is the contract') },
    ]);
    expect(await boundaryProblems('electron/preload/__check__.ts', `import * as c from '../core/clock';${uses('c')}`)).toEqual([
      { rule: 'import-x/no-restricted-paths', message: expect.stringContaining('preload') },
    ]);
  });

  it('tests do not sleep', async () => {
    const at = 'test/desk/__check__.test.ts';
    const sleeps = async (code: string) =>
      (await problems(at, code, ['no-restricted-syntax', 'no-restricted-properties', 'no-restricted-imports'])).map((p) => p.message);
    expect(
      await sleeps(`export const deadline = (reject: (e: Error) => void) => setTimeout(() => reject(new Error('late')), 10);\n`),
    ).toEqual([]);
    expect(await sleeps(`export const nap = () => new Promise((resolve) => setTimeout(resolve, 50));\n`)).toEqual([
      expect.stringContaining('No wall-clock sleeps'),
    ]);
    expect(await sleeps(`import { setTimeout as wait } from 'node:timers/promises';\nexport const nap = () => wait(50);\n`)).toEqual([
      expect.stringContaining('No wall-clock sleeps'),
    ]);
    expect(await sleeps(`export const nap = (page: { waitForTimeout(ms: number): Promise<void> }) => page.waitForTimeout(50);\n`)).toEqual([
      expect.stringContaining('No wall-clock sleeps'),
    ]);
  });

  it('no import cycles (type-only imports are erased and allowed)', async () => {
    const [a, b] = await eslint.lintFiles(['test/guardrails/fixtures/cycle-a.ts', 'test/guardrails/fixtures/cycle-b.ts']);
    const cycles = [...a!.messages, ...b!.messages].filter((m) => m.ruleId === 'import-x/no-cycle');
    expect(cycles.map((m) => m.message)).toEqual(['Dependency cycle detected', 'Dependency cycle detected']);
    const [typeOnly] = await eslint.lintFiles(['test/guardrails/fixtures/type-cycle-a.ts']);
    expect(typeOnly!.messages.filter((m) => m.ruleId === 'import-x/no-cycle')).toEqual([]);
  });
});
