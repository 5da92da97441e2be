// electron-builder driven for real (`--linux dir deb`), with the two things this machine cannot
// download stood in for: Electron's binary folder (test/support/stand-in-electron.ts: the fuse wire
// is real, the program is not) and fpm (test/support/stand-in-fpm.mjs builds the .deb with
// dpkg-deb from the arguments electron-builder gives fpm). The Electron-ABI addons cannot be
// compiled here either (node-gyp needs Electron's headers, a download), so .electron-native is a
// stand-in too: better-sqlite3's Node build relabelled with Electron's module version, keytar's
// Node-API build as it is. What the test checks is electron-builder's and our hook's real output.
// About 40 s on 2 shared cores.
import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import * as asar from '@electron/asar';
import { FuseState, FuseV1Options, getCurrentFuseWire } from '@electron/fuses';
import { Arch, build, Platform } from 'electron-builder';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import config, { DESK_DEB_DEPENDS, ELECTRON_BUILDER_DEB_DEPENDS } from '../../electron-builder.config.mjs';
import { addonAbi, electronAbi } from '@scripts/addon-abi.mjs';
import { checkPackedAddons, FUSES, makeAfterPack } from '@scripts/after-pack.mjs';
import { writeStandInElectronDist } from '../support/stand-in-electron';

const root = resolve(import.meta.dirname, '../..');
const SQLITE = 'node_modules/better-sqlite3/build/Release/better_sqlite3.node';
const KEYTAR = 'node_modules/keytar/build/Release/keytar.node';
const work = mkdtempSync(join(tmpdir(), 'packaging-'));
const out = join(work, 'dist');
const appDir = join(out, 'linux-unpacked');
const resources = join(appDir, 'resources');
const nativeDir = join(work, 'electron-native');
const abi = electronAbi(root);
const webMarker = join(root, 'out', 'web', 'packaging-test-stand-in.js');
let seconds = 0;

const sha256 = (file: string): string => createHash('sha256').update(readFileSync(file)).digest('hex');

/** .electron-native as scripts/electron-native.mjs leaves it, with stand-in Electron builds. */
function writeStandInNativeCopies(): void {
  for (const file of [SQLITE, KEYTAR]) mkdirSync(join(nativeDir, file, '..'), { recursive: true });
  const nodeBuild = readFileSync(join(root, SQLITE)).toString('latin1');
  const nodeAbi = process.versions.modules;
  writeFileSync(
    join(nativeDir, SQLITE),
    Buffer.from(nodeBuild.replaceAll(`node_register_module_v${nodeAbi}`, `node_register_module_v${abi}`), 'latin1'),
  );
  cpSync(join(root, KEYTAR), join(nativeDir, KEYTAR));
  const record = {
    target: { runtime: 'electron', version: config.electronVersion },
    platform: 'linux',
    arch: 'x64',
    packages: {},
    binaries: { 'better-sqlite3': SQLITE, keytar: KEYTAR },
  };
  writeFileSync(join(nativeDir, 'build-info.json'), JSON.stringify(record));
}

beforeAll(async () => {
  const started = Date.now();
  const vite = spawnSync(join(root, 'node_modules', '.bin', 'electron-vite'), ['build'], { cwd: root, encoding: 'utf8' });
  expect(vite.status, vite.stderr).toBe(0);
  // A bench or e2e run leaves out/web behind; the package must leave it out.
  mkdirSync(join(webMarker, '..'), { recursive: true });
  writeFileSync(webMarker, '// the web host bundle, which the desktop package must not hold\n');
  writeStandInNativeCopies();
  process.env.CUSTOM_FPM_PATH = join(root, 'test', 'support', 'stand-in-fpm.mjs');
  await build({
    projectDir: root,
    targets: Platform.LINUX.createTarget(['dir', 'deb'], Arch.x64),
    publish: 'never',
    config: {
      ...config,
      electronDist: writeStandInElectronDist(join(work, 'electron-dist'), config.electronVersion ?? ''),
      directories: { output: out },
      afterPack: makeAfterPack({ nativeDir }),
    },
  });
  seconds = (Date.now() - started) / 1000;
}, 300_000);

afterAll(() => {
  rmSync(webMarker, { force: true });
  rmSync(work, { recursive: true, force: true });
  delete process.env.CUSTOM_FPM_PATH;
});

describe('npm run package -- --linux dir deb, with stand-ins for the downloads', () => {
  it('flips the fuses in the packaged executable (read back from the file)', async () => {
    console.log(`packaging took ${seconds.toFixed(1)} s`);
    const wire = await getCurrentFuseWire(join(appDir, 'registry-desk'));
    for (const [name, enabled] of Object.entries(FUSES)) {
      expect(wire[FuseV1Options[name as keyof typeof FuseV1Options]], name).toBe(enabled ? FuseState.ENABLE : FuseState.DISABLE);
    }
  });

  it('writes an asar whose every packed file matches the integrity its header records', () => {
    const archive = join(resources, 'app.asar');
    let checked = 0;
    for (const path of asar.listPackage(archive, { isPack: false })) {
      const entry = asar.statFile(archive, path.slice(1), false) as {
        size?: number;
        unpacked?: boolean;
        integrity?: { algorithm: string; hash: string };
      };
      if (entry.size === undefined || entry.unpacked) continue;
      expect(entry.integrity?.algorithm, path).toBe('SHA256');
      expect(
        createHash('sha256')
          .update(asar.extractFile(archive, path.slice(1)))
          .digest('hex'),
        path,
      ).toBe(entry.integrity?.hash);
      checked += 1;
    }
    expect(checked).toBeGreaterThan(1000);
  });

  it('packs a page that asks for its files from the root, so a screen reloaded at its own address finds them', () => {
    const html = asar.extractFile(join(resources, 'app.asar'), 'out/renderer/index.html').toString('utf8');
    const files = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    expect(files.length).toBeGreaterThan(1);
    expect(files.filter((file) => !file.startsWith('/'))).toEqual([]);
  });

  it('unpacks exactly the two addons, the Electron-ABI builds from .electron-native', () => {
    const unpacked = join(resources, 'app.asar.unpacked');
    expect(sha256(join(unpacked, SQLITE))).toBe(sha256(join(nativeDir, SQLITE)));
    expect(sha256(join(unpacked, SQLITE))).not.toBe(sha256(join(root, SQLITE)));
    expect(addonAbi(readFileSync(join(unpacked, SQLITE)))).toEqual({ kind: 'abi', abi });
    expect(sha256(join(unpacked, KEYTAR))).toBe(sha256(join(nativeDir, KEYTAR)));
    expect(addonAbi(readFileSync(join(unpacked, KEYTAR)))).toEqual({ kind: 'napi' });
    expect(() => checkPackedAddons({ resources, abi })).not.toThrow();
    // keytar is loaded from node_modules, never from a bundler's copy in out/main/chunks.
    const packed = asar.listPackage(join(resources, 'app.asar'), { isPack: false });
    expect(packed.filter((path) => path.startsWith('/out/main/chunks/') && /keytar/.test(path))).toEqual([]);
  });

  it('refuses a package holding the Node-ABI build of better-sqlite3', () => {
    const copy = join(work, 'node-abi-resources');
    cpSync(join(resources, 'app.asar.unpacked'), join(copy, 'app.asar.unpacked'), { recursive: true });
    cpSync(join(root, SQLITE), join(copy, 'app.asar.unpacked', SQLITE));
    expect(() => checkPackedAddons({ resources: copy, abi })).toThrow(
      `is built for module version ${process.versions.modules}, not Electron's ${abi}`,
    );
  });

  it('holds the desktop bundles only: no web host, admin CLI, test addon or PostgreSQL driver', () => {
    const packed = asar.listPackage(join(resources, 'app.asar'), { isPack: false });
    const outFolders = new Set(packed.filter((path) => path.startsWith('/out/')).map((path) => path.split('/')[2]));
    expect([...outFolders].sort()).toEqual(['main', 'preload', 'renderer']);
    expect(packed.filter((path) => /test_extension|\/libpq\b|\/pg-native\b|\.map$/.test(path))).toEqual([]);
    expect(existsSync(join(resources, 'app.asar.unpacked', 'node_modules', 'libpq'))).toBe(false);
  });

  it('carries the metadata and the icon, and the .deb depends on what Electron and the desk need', () => {
    const pkg = JSON.parse(asar.extractFile(join(resources, 'app.asar'), 'package.json').toString('utf8')) as Record<string, unknown>;
    // electron-updater's feed: the generic provider the app checks signed manifests from.
    expect(readFileSync(join(resources, 'app-update.yml'), 'utf8')).toMatch(
      /provider: generic\nurl: https:\/\/registrydesk\.org\/updates\/?\n/,
    );
    expect(pkg).toMatchObject({ name: 'registry-desk', homepage: 'https://registrydesk.org', author: { email: 'desk@registrydesk.org' } });
    const deb = join(out, 'registry-desk_0.1.0_amd64.deb');
    const field = (name: string): string => spawnSync('dpkg-deb', ['-f', deb, name], { encoding: 'utf8' }).stdout.trim();
    expect(field('Depends').split(', ')).toEqual([...ELECTRON_BUILDER_DEB_DEPENDS, ...DESK_DEB_DEPENDS]);
    for (const needed of ['xdg-utils', 'libxtst6', 'libatspi2.0-0', 'libnotify4', 'libgbm1', 'libsecret-1-0'])
      expect(field('Depends')).toContain(needed);
    expect(field('Homepage')).toBe('https://registrydesk.org');
    const files = spawnSync('dpkg-deb', ['-c', deb], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 }).stdout;
    for (const size of [16, 32, 48, 64, 128, 256, 512])
      expect(files).toContain(`./usr/share/icons/hicolor/${size}x${size}/apps/registry-desk.png`);
    const desktop = spawnSync('dpkg-deb', ['--fsys-tarfile', deb], { encoding: 'buffer', maxBuffer: 512 * 1024 * 1024 });
    const entry = spawnSync('tar', ['-xO', './usr/share/applications/registry-desk.desktop'], {
      input: desktop.stdout,
      encoding: 'utf8',
    }).stdout;
    expect(entry).toContain('Icon=registry-desk');
  });
});
