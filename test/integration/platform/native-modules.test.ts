// Which native addon builds a process loads (electron/core/platform/db/native-modules.ts), with real files:
// plain Node keeps node_modules; Electron with the Electron-ABI copies loads them; Electron without
// them falls back to node_modules; and anything that cannot load says what to run.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import {
  appRootFrom,
  chooseNativeModules,
  NATIVE_DIR_NAME,
  NativeModuleError,
  RECORD_FILE,
  runningTarget,
  type RuntimeTarget,
} from '@platform/db/native-modules';
import { openBetterSqlite3, openSqlite } from '@platform/db/open';
import { KeychainUnavailableError } from '@desk/secrets';
import { loadKeytarFrom } from '@desk/secrets/keytar-loader';
import * as script from '@scripts/electron-native.mjs';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const ELECTRON: RuntimeTarget = { runtime: 'electron', version: '45.5.0' };
const REBUILD_SENTENCE = /could not be loaded in Electron 45\.5\.0; run `npm run rebuild:electron` to build it for this Electron \(/;

const temp = mkdtempSync(join(tmpdir(), 'native-modules-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let count = 0;

/** An app root with fake copies: a record as scripts/electron-native.mjs writes it, and binaries that are not real. */
function fakeCopies(record: { target?: RuntimeTarget; packages?: Record<string, string> } = {}): { root: string; dir: string } {
  const root = join(temp, `app-${++count}`);
  const dir = join(root, NATIVE_DIR_NAME);
  const wanted = script.wantedRecord(REPO_ROOT, record.target ?? ELECTRON);
  const full = {
    ...wanted,
    ...(record.packages ? { packages: { ...wanted.packages, ...record.packages } } : {}),
    builtAt: new Date(0).toISOString(),
  };
  writeFile(join(root, 'package.json'), '{"name":"fake-app"}');
  writeFile(join(dir, RECORD_FILE), JSON.stringify(full));
  // What a copy looks like after a build, with binaries that cannot load.
  for (const binary of Object.values(full.binaries)) writeFile(join(dir, binary), 'not a shared library\n'.repeat(64));
  writeFile(join(dir, 'node_modules/keytar/package.json'), '{"name":"keytar","main":"./lib/keytar.js"}');
  writeFile(join(dir, 'node_modules/keytar/lib/keytar.js'), "module.exports = require('../build/Release/keytar.node');");
  return { root, dir };
}

function writeFile(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

describe('choosing the builds', () => {
  it('plain Node (no process.versions.electron): node_modules, even where copies exist', () => {
    expect(runningTarget()).toBeUndefined();
    const { root, dir } = fakeCopies();
    for (const choice of [
      chooseNativeModules({ appRoot: root }),
      chooseNativeModules({ nativeDir: dir }),
      chooseNativeModules({ target: undefined, nativeDir: dir }),
    ]) {
      expect(choice).toEqual({
        target: undefined,
        source: 'node_modules',
        betterSqlite3Binding: undefined,
        keytarDir: undefined,
        problem: undefined,
      });
    }
  });

  it('recognizes Electron by process.versions.electron', () => {
    expect(runningTarget({ ...process.versions, electron: '45.5.0' })).toEqual(ELECTRON);
  });

  it('Electron with copies built for it: the copies (from the app root, or the folder given)', () => {
    const { root, dir } = fakeCopies();
    const expected = {
      target: ELECTRON,
      source: 'copies',
      betterSqlite3Binding: join(dir, 'node_modules/better-sqlite3/build/Release/better_sqlite3.node'),
      keytarDir: join(dir, 'node_modules/keytar'),
      problem: undefined,
    };
    expect(chooseNativeModules({ target: ELECTRON, appRoot: root })).toEqual(expected);
    expect(chooseNativeModules({ target: ELECTRON, nativeDir: dir })).toEqual(expected);
  });

  it('Electron without copies (a packaged app) or with an unfinished build (no record): node_modules, which load', async () => {
    const empty = join(temp, 'no-copies');
    mkdirSync(join(empty, NATIVE_DIR_NAME, 'node_modules'), { recursive: true });
    for (const choice of [
      chooseNativeModules({ target: ELECTRON, appRoot: empty }),
      chooseNativeModules({ target: ELECTRON, nativeDir: join(temp, 'nowhere') }),
    ]) {
      expect(choice).toEqual({
        target: ELECTRON,
        source: 'node_modules',
        betterSqlite3Binding: undefined,
        keytarDir: undefined,
        problem: undefined,
      });
      // Under this Node the normal builds load: the fallback really is node_modules.
      const db = openBetterSqlite3(':memory:', {}, choice);
      expect(db.prepare('SELECT 1 AS one').get()).toEqual({ one: 1 });
      db.close();
      expect(typeof (await loadKeytarFrom(choice)).getPassword).toBe('function');
    }
  });

  it('the default app root is the checkout, from the sources and from the bundle in out/main', () => {
    expect(appRootFrom(join(REPO_ROOT, 'electron/core/platform/db'))).toBe(REPO_ROOT);
    expect(appRootFrom(join(REPO_ROOT, 'out/main'))).toBe(REPO_ROOT);
    expect(appRootFrom(join(REPO_ROOT, 'out/main/chunks'))).toBe(REPO_ROOT);
  });

  it('agrees with scripts/electron-native.mjs on the folder, the record and where the binaries are', () => {
    expect(script.NATIVE_DIR_NAME).toBe(NATIVE_DIR_NAME);
    expect(script.RECORD_FILE).toBe(RECORD_FILE);
    const { dir } = fakeCopies();
    const choice = chooseNativeModules({ target: ELECTRON, nativeDir: dir });
    const binaries = script.wantedRecord(REPO_ROOT, ELECTRON).binaries;
    expect(choice.betterSqlite3Binding).toBe(join(dir, binaries['better-sqlite3']!));
    expect(join(choice.keytarDir!, 'build/Release/keytar.node')).toBe(join(dir, binaries.keytar!));
  });
});

describe('under Electron, what cannot load says what to run', () => {
  it('copies whose binaries do not load: better-sqlite3 and keytar name the command and the cause', async () => {
    const { dir } = fakeCopies();
    const choice = chooseNativeModules({ target: ELECTRON, nativeDir: dir });
    expect(choice.source).toBe('copies');
    const file = join(temp, 'never-created.sqlite');
    let error: unknown;
    try {
      openSqlite(file, { migrations: [], native: choice });
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(NativeModuleError);
    expect((error as Error).message).toMatch(REBUILD_SENTENCE);
    // The cause is the loader's own words (on Linux: "<path>: invalid ELF header"); the file was never opened.
    expect((error as Error).message).toMatch(/^better-sqlite3 could not be loaded .*better_sqlite3\.node.*\)\.$/);
    expect(existsSync(file)).toBe(false);
    await expect(loadKeytarFrom(choice)).rejects.toThrow(KeychainUnavailableError);
    await expect(loadKeytarFrom(choice)).rejects.toThrow(
      /^The OS keychain module \(keytar\) could not be loaded in Electron 45\.5\.0; run `npm run rebuild:electron` .*keytar\.node.*\)\.$/,
    );
  });

  it('copies built for another Electron are not loaded, and say so', async () => {
    const { dir } = fakeCopies({ target: { runtime: 'electron', version: '40.0.0' } });
    const choice = chooseNativeModules({ target: ELECTRON, nativeDir: dir });
    expect(choice).toMatchObject({ source: 'node_modules', betterSqlite3Binding: undefined, keytarDir: undefined });
    expect(choice.problem).toBe(`the copies in ${dir} were built for Electron 40.0.0 on ${process.platform}-${process.arch}`);
    expect(() => openBetterSqlite3(':memory:', {}, choice)).toThrow(REBUILD_SENTENCE);
    expect(() => openBetterSqlite3(':memory:', {}, choice)).toThrow(/built for Electron 40\.0\.0/);
    await expect(loadKeytarFrom(choice)).rejects.toThrow(REBUILD_SENTENCE);
  });

  it('copies of another better-sqlite3 than the installed one are not loaded (its JavaScript comes from node_modules)', () => {
    const { dir } = fakeCopies({ packages: { 'better-sqlite3': '11.0.0' } });
    const choice = chooseNativeModules({ target: ELECTRON, nativeDir: dir });
    expect(choice.problem).toMatch(/hold better-sqlite3 11\.0\.0 but 12\.\d+\.\d+ is installed/);
    expect(() => openBetterSqlite3(':memory:', {}, choice)).toThrow(NativeModuleError);
  });

  it('without copies, when the node_modules builds cannot load either (Node ABI under Electron)', () => {
    // A child where better-sqlite3's binary lookup fails as it does for a Node-ABI build under
    // Electron, and `import('keytar')` fails as if keytar were missing.
    const preload = join(temp, 'abi-mismatch.cjs');
    writeFileSync(
      preload,
      `const Module = require('node:module');
const load = Module._load;
Module._load = function (request, ...rest) {
  if (request === 'bindings') {
    throw Object.assign(new Error("The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 145."), { code: 'ERR_DLOPEN_FAILED' });
  }
  return load.call(this, request, ...rest);
};`,
    );
    const child = `
      const { chooseNativeModules } = await import('./electron/core/platform/db/native-modules.ts');
      const { openBetterSqlite3 } = await import('./electron/core/platform/db/open.ts');
      const { loadKeytarFrom } = await import('./electron/core/desk/secrets/keytar-loader.ts');
      const choice = chooseNativeModules({ target: ${JSON.stringify(ELECTRON)}, nativeDir: ${JSON.stringify(join(temp, 'nowhere'))} });
      const out = { source: choice.source };
      try { openBetterSqlite3(':memory:', {}, choice); } catch (e) { out.sqlite = e.name + ': ' + e.message; }
      try { await loadKeytarFrom(choice); } catch (e) { out.keytar = e.name + ': ' + e.message; }
      console.log(JSON.stringify(out));`;
    const run = spawnSync(
      process.execPath,
      [
        '--require',
        preload,
        '--import',
        'tsx',
        '--import',
        './test/support/keyring-hide-keytar.ts',
        '--input-type=module',
        '--eval',
        child,
      ],
      { cwd: REPO_ROOT, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stderr).toBe('');
    const out = JSON.parse(run.stdout) as { source: string; sqlite?: string; keytar?: string };
    expect(out.source).toBe('node_modules');
    expect(out.sqlite).toBe(
      'NativeModuleError: better-sqlite3 could not be loaded in Electron 45.5.0; run `npm run rebuild:electron` to build it for this Electron ' +
        "(The module 'better_sqlite3.node' was compiled against a different Node.js version using NODE_MODULE_VERSION 115. This version of Node.js requires NODE_MODULE_VERSION 145).",
    );
    expect(out.keytar).toBe(
      "KeychainUnavailableError: The OS keychain module (keytar) could not be loaded in Electron 45.5.0; run `npm run rebuild:electron` to build it for this Electron (Cannot find module 'keytar').",
    );
  });
});
