// scripts/electron-native.mjs: the Electron-ABI copies of better-sqlite3 and keytar. Electron's
// headers cannot be downloaded here, so the compile is exercised against this Node instead (the same
// @electron/rebuild call, with this Node's version, ABI and headers); the copy, record and skip logic
// is the same for both and is tested with a stand-in compile step. The real compile is in
// electron-native-build.test.ts (the scale tier).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { chooseNativeModules } from '@platform/db/native-modules';
import {
  buildNativeCopies,
  currentNode,
  ensureElectronCopies,
  installedElectron,
  readRecord,
  rebuildOptions,
  wantedRecord,
  whyStale,
  type Target,
} from '@scripts/electron-native.mjs';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const ELECTRON: Target = { runtime: 'electron', version: '45.5.0' };
const installed = (name: string) =>
  (JSON.parse(readFileSync(join(REPO_ROOT, 'node_modules', name, 'package.json'), 'utf8')) as { version: string }).version;

const temp = mkdtempSync(join(tmpdir(), 'electron-native-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));
let count = 0;
const freshDest = () => join(temp, `copies-${++count}`);

interface Call {
  dest: string;
  target: Target;
  /** Whether a Node build came along with the copies. */
  hadBuildDir: boolean;
}

/** Stands in for the compiler: records the call and leaves a file where each binary goes. */
function fakeCompile(calls: Call[]) {
  return async (dest: string, target: Target) => {
    calls.push({
      dest,
      target,
      hadBuildDir: existsSync(join(dest, 'node_modules/better-sqlite3/build')) || existsSync(join(dest, 'node_modules/keytar/build')),
    });
    for (const file of Object.values(wantedRecord(REPO_ROOT, target).binaries)) {
      mkdirSync(dirname(join(dest, file)), { recursive: true });
      writeFileSync(join(dest, file), 'binary');
    }
  };
}

describe('copy, record and skip (any target)', () => {
  it('builds for the installed electron package', () => {
    expect(installedElectron(REPO_ROOT)).toEqual({ runtime: 'electron', version: installed('electron') });
    expect(installedElectron(temp)).toBeUndefined();
  });

  it('copies the addons (without their Node builds) and what they compile with, compiles them, then records what for', async () => {
    const dest = freshDest();
    const calls: Call[] = [];
    const result = await buildNativeCopies({ root: REPO_ROOT, target: ELECTRON, dest, compile: fakeCompile(calls) });
    expect(result).toMatchObject({ built: true, reason: 'not built yet', dest });
    expect(calls).toEqual([{ dest, target: ELECTRON, hadBuildDir: false }]);
    for (const name of ['better-sqlite3', 'keytar', 'node-addon-api']) {
      const manifest = JSON.parse(readFileSync(join(dest, 'node_modules', name, 'package.json'), 'utf8')) as { version: string };
      expect(manifest.version).toBe(installed(name));
    }
    expect(existsSync(join(dest, 'node_modules/better-sqlite3/deps/sqlite3/sqlite3.c'))).toBe(true);
    expect((JSON.parse(readFileSync(join(dest, 'package.json'), 'utf8')) as { dependencies: unknown }).dependencies).toEqual({
      'better-sqlite3': installed('better-sqlite3'),
      keytar: installed('keytar'),
    });
    expect(readRecord(dest)).toEqual({
      target: ELECTRON,
      platform: process.platform,
      arch: process.arch,
      packages: {
        'better-sqlite3': installed('better-sqlite3'),
        keytar: installed('keytar'),
        'node-addon-api': installed('node-addon-api'),
      },
      binaries: {
        'better-sqlite3': 'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
        keytar: 'node_modules/keytar/build/Release/keytar.node',
      },
      builtAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
    });
    expect(whyStale(dest, wantedRecord(REPO_ROOT, ELECTRON))).toBeUndefined();
  });

  it('is idempotent: skips copies that match, rebuilds when forced, for another Electron, or with a binary missing', async () => {
    const dest = freshDest();
    const calls: Call[] = [];
    const compile = fakeCompile(calls);
    await buildNativeCopies({ root: REPO_ROOT, target: ELECTRON, dest, compile });
    const first = readRecord(dest);

    expect(await buildNativeCopies({ root: REPO_ROOT, target: ELECTRON, dest, compile })).toMatchObject({
      built: false,
      reason: 'up to date',
      record: first,
    });
    expect(calls).toHaveLength(1);

    expect(await buildNativeCopies({ root: REPO_ROOT, target: ELECTRON, dest, compile, force: true })).toMatchObject({
      built: true,
      reason: 'forced',
    });

    const next: Target = { runtime: 'electron', version: '45.6.0' };
    const platform = `${process.platform}-${process.arch}`;
    expect(await buildNativeCopies({ root: REPO_ROOT, target: next, dest, compile })).toMatchObject({
      built: true,
      reason: `built for electron 45.5.0 ${platform}, not electron 45.6.0 ${platform}`,
    });

    rmSync(join(dest, 'node_modules/keytar/build/Release/keytar.node'));
    expect(await buildNativeCopies({ root: REPO_ROOT, target: next, dest, compile })).toMatchObject({
      built: true,
      reason: 'node_modules/keytar/build/Release/keytar.node is missing',
    });
    expect(calls).toHaveLength(4);
  });

  it('a build that fails leaves no record, so the copies are neither loaded nor taken as up to date', async () => {
    const dest = freshDest();
    await buildNativeCopies({ root: REPO_ROOT, target: ELECTRON, dest, compile: fakeCompile([]) });
    const failing = () => Promise.reject(new Error('node-gyp failed'));
    await expect(buildNativeCopies({ root: REPO_ROOT, target: ELECTRON, dest, compile: failing, force: true })).rejects.toThrow(
      'node-gyp failed',
    );
    expect(readRecord(dest)).toBeUndefined();
    expect(whyStale(dest, wantedRecord(REPO_ROOT, ELECTRON))).toBe('not built yet');
    expect(chooseNativeModules({ target: ELECTRON, nativeDir: dest }).source).toBe('node_modules');

    await expect(buildNativeCopies({ root: REPO_ROOT, target: ELECTRON, dest, compile: async () => {} })).rejects.toThrow(
      'the build finished without node_modules/better-sqlite3/build/Release/better_sqlite3.node',
    );
    expect(readRecord(dest)).toBeUndefined();
  });

  it('says why it builds nothing without an electron package', async () => {
    const lines: string[] = [];
    expect(await ensureElectronCopies({ root: temp, log: (line) => lines.push(line) })).toBe(1);
    expect(lines).toEqual(['electron-native: the electron package is not installed, so there is nothing to build for.']);
  });
});

describe('what @electron/rebuild is asked to do', () => {
  it('for Electron: only the two copies, the search stopping at their folder, against Electron headers whatever npm_config_* says', () => {
    const foreign = { npm_config_nodedir: '/usr', NPM_CONFIG_TARGET: '20.0.0', npm_config_runtime: 'node', npm_config_disturl: 'x' };
    const saved = Object.fromEntries([...Object.keys(foreign), 'npm_config_cache'].map((key) => [key, process.env[key]]));
    Object.assign(process.env, foreign, { npm_config_cache: '/c' });
    try {
      const { options, env } = rebuildOptions('/app/.electron-native', ELECTRON);
      expect(options).toEqual({
        buildPath: '/app/.electron-native',
        projectRootPath: '/app/.electron-native',
        electronVersion: '45.5.0',
        onlyModules: ['better-sqlite3', 'keytar'],
        force: true,
        mode: 'sequential',
        jobs: availableParallelism(),
        disablePreGypCopy: true,
      });
      for (const key of Object.keys(foreign)) expect(env[key]).toBeUndefined();
      expect(env.npm_config_cache).toBe('/c');
      expect(env.PATH).toBe(process.env.PATH);
    } finally {
      for (const [key, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[key];
        else process.env[key] = value;
      }
    }
  });

  it('for this Node: its version, ABI and headers, from source', () => {
    const { options, env } = rebuildOptions('/d', currentNode('/usr'));
    expect(options).toMatchObject({
      electronVersion: process.versions.node,
      forceABI: Number(process.versions.modules),
      buildFromSource: true,
      projectRootPath: '/d',
    });
    expect(env.npm_config_nodedir).toBe('/usr');
  });
});
