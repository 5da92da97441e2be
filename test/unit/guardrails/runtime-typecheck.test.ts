// Each runtime's tsconfig knows only its own globals and modules: a file that reaches for another
// runtime's must fail `npm run typecheck`. Proven here by type-checking a snippet placed (in memory)
// in each project's folder, with the compiler options read from that project's own tsconfig file.
import { dirname, join, resolve } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = resolve(import.meta.dirname, '../../..');

// The lib and @types files every program here reads (the DOM's and Node's declarations are most of
// the test's time), parsed once and shared by the programs whose options would make the same
// file, as an editor's language service shares them (its document registry's key).
const parsedFiles = new Map<string, ts.SourceFile | undefined>();
const documentRegistry = ts.createDocumentRegistry();

/** Type-checks `code` as if it were the file `relativePath` of the project `tsconfig.<project>.json`. */
function diagnosticsOf(project: string, relativePath: string, code: string): { code: number; text: string }[] {
  const configPath = join(root, `tsconfig.${project}.json`);
  const parsed = ts.getParsedCommandLineOfConfigFile(configPath, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} });
  if (!parsed || parsed.errors.length > 0) throw new Error(`cannot read ${configPath}`);
  const fileName = join(root, relativePath);
  expect(parsed.fileNames.length, `${project} holds files`).toBeGreaterThan(0);
  // Only the snippet is a root file: what it imports is read from the work tree, lib and types as configured.
  const options: ts.CompilerOptions = { ...parsed.options, composite: false, noEmit: true, emitDeclarationOnly: false, incremental: false };
  const host = ts.createCompilerHost(options);
  const settingsKey = documentRegistry.getKeyForCompilationSettings(options);
  const readFile = host.readFile.bind(host);
  const fileExists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => (name === fileName ? code : readFile(name));
  host.fileExists = (name) => name === fileName || fileExists(name);
  host.getSourceFile = (name, language, ...rest) => {
    if (name === fileName) return ts.createSourceFile(name, code, language);
    const key = `${settingsKey}\0${name}\0${JSON.stringify(language)}`;
    if (!parsedFiles.has(key)) parsedFiles.set(key, getSourceFile(name, language, ...rest));
    return parsedFiles.get(key);
  };
  host.getCurrentDirectory = () => dirname(configPath);
  const program = ts.createProgram({ rootNames: [fileName], options, host });
  const source = program.getSourceFile(fileName)!;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((d) => ({
    code: d.code,
    text: ts.flattenDiagnosticMessageText(d.messageText, '\n'),
  }));
}

const CANNOT_FIND_NAME = [2304, 2580, 2582, 2584, 2591, 2867, 2868];
const CANNOT_FIND_MODULE = 2307;

describe('one tsconfig per runtime', () => {
  it('core (Node) knows Node and not the DOM', () => {
    const clean = `import { readFileSync } from 'node:fs';\nexport const read = () => readFileSync(process.argv[1]!, 'utf8');\n`;
    expect(diagnosticsOf('core', 'electron/core/__check__.ts', clean)).toEqual([]);
    const withDom = `export const title = () => document.title;\n`;
    const found = diagnosticsOf('core', 'electron/core/__check__.ts', withDom);
    expect(found.map((d) => d.code)).toEqual([expect.toBeOneOf(CANNOT_FIND_NAME)]);
    expect(found[0]!.text).toContain("'document'");
  });

  it('the renderer (DOM) knows the DOM and neither Node modules nor Node globals', () => {
    const clean = `export const title = () => document.title + window.location.href;\n`;
    expect(diagnosticsOf('renderer', 'renderer/src/__check__.ts', clean)).toEqual([]);
    const withNode = `import { readFileSync } from 'node:fs';\nexport const read = () => readFileSync('x');\nexport const env = () => process.env.HOME;\nexport const bytes = () => Buffer.from('x');\n`;
    const found = diagnosticsOf('renderer', 'renderer/src/__check__.ts', withNode);
    expect(found.map((d) => d.code)).toEqual([CANNOT_FIND_MODULE, expect.toBeOneOf(CANNOT_FIND_NAME), expect.toBeOneOf(CANNOT_FIND_NAME)]);
    expect(found.map((d) => d.text).join('\n')).toMatch(/node:fs[\s\S]*'process'[\s\S]*'Buffer'/);
  });

  it('shared (imported by both) knows neither the DOM nor Node', () => {
    const clean = `export const double = (xs: readonly number[]) => xs.map((x) => x * 2);\n`;
    expect(diagnosticsOf('shared', 'shared/__check__.ts', clean)).toEqual([]);
    const withBoth = `export const a = () => window.name;\nexport const b = () => process.pid;\n`;
    expect(diagnosticsOf('shared', 'shared/__check__.ts', withBoth).map((d) => d.code)).toEqual([
      expect.toBeOneOf(CANNOT_FIND_NAME),
      expect.toBeOneOf(CANNOT_FIND_NAME),
    ]);
  });

  it('the wallet worker knows worker globals and not the page DOM', () => {
    const clean = `export const post = (x: unknown) => (self as unknown as DedicatedWorkerGlobalScope).postMessage(x);\n`;
    expect(diagnosticsOf('wallet-worker', 'renderer/src/wallet/__check__.ts', clean)).toEqual([]);
    const withDom = `export const title = () => document.title;\n`;
    expect(diagnosticsOf('wallet-worker', 'renderer/src/wallet/__check__.ts', withDom).map((d) => d.code)).toEqual([
      expect.toBeOneOf(CANNOT_FIND_NAME),
    ]);
  });

  it('the Electron shell knows Electron and Node, not the DOM', () => {
    const clean = `import { app } from 'electron';\nimport { join } from 'node:path';\nexport const data = () => join(app.getPath('userData'), 'x');\n`;
    expect(diagnosticsOf('electron', 'electron/main/__check__.ts', clean)).toEqual([]);
    const withDom = `export const title = () => document.title;\n`;
    expect(diagnosticsOf('electron', 'electron/main/__check__.ts', withDom).map((d) => d.code)).toEqual([
      expect.toBeOneOf(CANNOT_FIND_NAME),
    ]);
  });
});
