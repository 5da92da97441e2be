// The import rules ESLint keeps (the rest of the architecture is dependency-cruiser's, proven by
// architecture.test.ts): electron/core never imports the electron package, and tests never sleep.
// Each case lints a snippet as if it stood at a path in the tree, with the real config (type-aware
// rules turned off: these rules do not need types, and the snippets belong to no tsconfig), and
// expects exactly the rule to fire; the same place with an allowed import is clean.
import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');
const BOUNDARY_RULES = ['no-restricted-imports'];

const eslint = new ESLint({
  cwd: root,
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

describe('import rules of ESLint', () => {
  it('electron/core never imports electron', async () => {
    const at = 'electron/core/desk/__check__.ts';
    expect(await boundaryProblems(at, `import { systemClock } from '../platform/clock';${uses('systemClock')}`)).toEqual([]);
    expect(await boundaryProblems(at, `import { app } from 'electron';${uses('app')}`)).toEqual([
      { rule: 'no-restricted-imports', message: expect.stringContaining('electron/core never imports Electron') },
    ]);
    expect(await boundaryProblems(at, `import type { BrowserWindow } from 'electron/main';\nexport type W = BrowserWindow;\n`)).toEqual([
      { rule: 'no-restricted-imports', message: expect.stringContaining('electron/core never imports Electron') },
    ]);
    // The shell may.
    expect(await boundaryProblems('electron/main/__check__.ts', `import { app } from 'electron';${uses('app')}`)).toEqual([]);
  });

  it('tests do not sleep', async () => {
    const at = 'test/unit/desk/__check__.test.ts';
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
});
