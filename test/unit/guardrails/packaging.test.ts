// The installer's configuration read as data (electron-builder.config.mjs and its afterPack hook,
// scripts/after-pack.mjs): the targets, asar, the fuses, where the native modules come from. No
// electron-builder run here: test/integration/packaging.test.ts runs it, with stand-ins for the downloads.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FuseV1Options, FuseVersion } from '@electron/fuses';
import { afterAll, describe, expect, it } from 'vitest';
import config, { DESK_DEB_DEPENDS, ELECTRON_BUILDER_DEB_DEPENDS } from '../../../electron-builder.config.mjs';
import afterPack, { FUSES, fuseConfig, installElectronAddons, packagedPaths } from '@scripts/after-pack.mjs';
import { addonAbi } from '@scripts/addon-abi.mjs';
import { drawIcon, encodePng, ICON_SIZES } from '@scripts/draw-icon.mjs';
import { whyNoPackage } from '@scripts/package';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  scripts: Record<string, string>;
  devDependencies: Record<string, string>;
};

const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('the packaging configuration', () => {
  it("passes electron-builder's own schema validation", async () => {
    const require = createRequire(import.meta.url);
    const { validateConfiguration } = require('app-builder-lib/out/util/config/config.js') as {
      validateConfiguration: (config: unknown, logger: unknown) => Promise<void>;
    };
    const { DebugLogger } = require('builder-util') as { DebugLogger: new (enabled: boolean) => unknown };
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, asar: 'yes' }, new DebugLogger(false))).rejects.toThrow(/asar/);
  });

  it('builds the AppImage and the .deb on Linux and declares the macOS and Windows targets', () => {
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg', 'zip']);
    expect(config.mac?.hardenedRuntime).toBe(true);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.deb?.depends).toContain('libsecret-1-0');
  });

  it("keeps electron-builder's default .deb dependencies and adds the desk's", async () => {
    const require = createRequire(import.meta.url);
    const FpmTarget = (
      require('app-builder-lib/out/targets/FpmTarget.js') as { default: { prototype: { getDefaultDepends(target: string): string[] } } }
    ).default;
    expect(ELECTRON_BUILDER_DEB_DEPENDS).toEqual(FpmTarget.prototype.getDefaultDepends('deb'));
    expect(config.deb?.depends).toEqual([...ELECTRON_BUILDER_DEB_DEPENDS, ...DESK_DEB_DEPENDS]);
    for (const needed of ['xdg-utils', 'libxtst6', 'libatspi2.0-0', 'libnotify4', 'libgbm1']) expect(config.deb?.depends).toContain(needed);
  });

  it('names a homepage, an author and an icon drawn in every size', () => {
    const meta = pkg as unknown as { homepage?: string; author?: { name?: string; email?: string } };
    expect(meta.homepage).toMatch(/^https:\/\//);
    expect(meta.author?.email).toMatch(/@/);
    expect(config.linux?.icon).toBe('resources/icons');
    expect(config.icon).toBe('resources/icons/1024x1024.png');
    for (const size of ICON_SIZES) {
      const png = readFileSync(new URL(`../../../resources/icons/${size}x${size}.png`, import.meta.url));
      expect(png.subarray(1, 4).toString('ascii')).toBe('PNG');
      expect([png.readUInt32BE(16), png.readUInt32BE(20)]).toEqual([size, size]);
      // What scripts/draw-icon.mjs draws today: the committed file is not stale.
      if (size <= 256) expect(png.equals(encodePng(size, drawIcon(size))), `${size}x${size}.png`).toBe(true);
    }
  });

  it('tells a Node-API addon, an addon for one module version and anything else apart', () => {
    expect(addonAbi(Buffer.from('\0ELF..napi_register_module_v1\0'))).toEqual({ kind: 'napi' });
    expect(addonAbi(Buffer.from('\0ELF..node_register_module_v115\0'))).toEqual({ kind: 'abi', abi: 115 });
    expect(addonAbi(Buffer.from('\0ELF..init\0'))).toEqual({ kind: 'unknown' });
  });

  it('packs the app into an asar, native addons unpacked, fonts beside it, for the installed Electron', () => {
    expect(config.asar).toBe(true);
    expect(config.asarUnpack).toEqual(['**/*.node']);
    expect(config.files).toEqual(expect.arrayContaining(['out/main/**/*', 'out/preload/**/*', 'out/renderer/**/*', 'package.json']));
    expect(config.files).not.toContain('out/**/*');
    expect(config.files).toContain('!node_modules/better-sqlite3/build/Release/test_extension.node');
    expect(config.files).toContain('!node_modules/{pg-native,libpq}{,/**}');
    expect(config.extraResources).toEqual([{ from: 'resources/fonts', to: 'resources/fonts' }]);
    expect(config.electronVersion).toBe(pkg.devDependencies.electron);
    // The checkout's node_modules stay built for Node; the hook installs the Electron-ABI copies.
    expect(config.npmRebuild).toBe(false);
    expect(config.afterPack).toBe(afterPack);
  });

  it('keeps signing secrets out of the configuration (they come from the environment)', () => {
    const text = readFileSync(new URL('../../../electron-builder.config.mjs', import.meta.url), 'utf8');
    expect(text).not.toMatch(/cscLink|cscKeyPassword|certificatePassword|appleIdPassword/);
    for (const name of ['CSC_LINK', 'CSC_KEY_PASSWORD', 'APPLE_API_KEY', 'APPLE_API_KEY_ID', 'APPLE_API_ISSUER'])
      expect(text).toContain(name);
    expect(config.mac?.notarize).toBeUndefined();
  });

  it('flips the fuses: no RunAsNode, NODE_OPTIONS, inspect or file:// privileges; asar-only with integrity; encrypted cookies', () => {
    expect(FUSES).toEqual({
      RunAsNode: false,
      EnableNodeOptionsEnvironmentVariable: false,
      EnableNodeCliInspectArguments: false,
      GrantFileProtocolExtraPrivileges: false,
      EnableEmbeddedAsarIntegrityValidation: true,
      OnlyLoadAppFromAsar: true,
      EnableCookieEncryption: true,
    });
    const wire = fuseConfig('linux', 'x64') as unknown as Record<string | number, unknown>;
    expect(wire.version).toBe(FuseVersion.V1);
    expect(wire[FuseV1Options.RunAsNode]).toBe(false);
    expect(wire[FuseV1Options.EnableNodeOptionsEnvironmentVariable]).toBe(false);
    expect(wire[FuseV1Options.EnableNodeCliInspectArguments]).toBe(false);
    expect(wire[FuseV1Options.GrantFileProtocolExtraPrivileges]).toBe(false);
    expect(wire[FuseV1Options.EnableEmbeddedAsarIntegrityValidation]).toBe(true);
    expect(wire[FuseV1Options.OnlyLoadAppFromAsar]).toBe(true);
    expect(wire[FuseV1Options.EnableCookieEncryption]).toBe(true);
    expect(wire.resetAdHocDarwinSignature).toBe(false);
    expect((fuseConfig('darwin', 'arm64') as { resetAdHocDarwinSignature?: boolean }).resetAdHocDarwinSignature).toBe(true);
  });

  it('finds the executable to flip and the resources folder on each platform', () => {
    expect(packagedPaths('linux', '/o', 'Registry Desk', 'registry-desk')).toEqual({
      executable: '/o/registry-desk',
      resources: '/o/resources',
    });
    expect(packagedPaths('win32', '/o', 'Registry Desk', 'registry-desk')).toEqual({
      executable: '/o/Registry Desk.exe',
      resources: '/o/resources',
    });
    expect(packagedPaths('darwin', '/o', 'Registry Desk', 'registry-desk')).toEqual({
      executable: '/o/Registry Desk.app',
      resources: '/o/Registry Desk.app/Contents/Resources',
    });
  });

  it('installs the Electron-ABI addons into app.asar.unpacked, and refuses copies built for another Electron or platform', () => {
    const dir = mkdtempSync(join(tmpdir(), 'packaging-'));
    dirs.push(dir);
    const nativeDir = join(dir, '.electron-native');
    const resources = join(dir, 'resources');
    const binaries = {
      'better-sqlite3': 'node_modules/better-sqlite3/build/Release/better_sqlite3.node',
      keytar: 'node_modules/keytar/build/Release/keytar.node',
    };
    for (const [name, file] of Object.entries(binaries)) {
      mkdirSync(join(nativeDir, file, '..'), { recursive: true });
      writeFileSync(join(nativeDir, file), `electron build of ${name}`);
      mkdirSync(join(resources, 'app.asar.unpacked', file, '..'), { recursive: true });
      writeFileSync(join(resources, 'app.asar.unpacked', file), `node build of ${name}`);
    }
    const record = { target: { runtime: 'electron', version: '45.5.0' }, platform: 'linux', arch: 'x64', packages: {}, binaries };
    writeFileSync(join(nativeDir, 'build-info.json'), JSON.stringify(record));

    expect(() => installElectronAddons({ nativeDir, resources, electronVersion: '45.6.0', platform: 'linux', arch: 'x64' })).toThrow(
      'are built for electron 45.5.0 linux-x64, not electron 45.6.0 linux-x64; run npm run rebuild:electron',
    );
    expect(() => installElectronAddons({ nativeDir, resources, electronVersion: '45.5.0', platform: 'linux', arch: 'arm64' })).toThrow(
      /not electron 45\.5\.0 linux-arm64/,
    );
    expect(readFileSync(join(resources, 'app.asar.unpacked', binaries.keytar), 'utf8')).toBe('node build of keytar');

    installElectronAddons({ nativeDir, resources, electronVersion: '45.5.0', platform: 'linux', arch: 'x64' });
    for (const [name, file] of Object.entries(binaries)) {
      expect(readFileSync(join(resources, 'app.asar.unpacked', file), 'utf8')).toBe(`electron build of ${name}`);
    }
  });

  it('npm run package says in one line that there is no Electron binary, instead of pretending', () => {
    expect(pkg.scripts.package).toBe('tsx scripts/package.ts');
    const reason = whyNoPackage({ missing: 'no binary downloaded' });
    expect(reason).toBe(
      'package: no Electron binary here (no binary downloaded); electron-builder packages the binary npm run setup downloads, so nothing was built',
    );
    expect(reason).not.toContain('\n');
    expect(whyNoPackage({ path: '/usr/lib/electron/electron' })).toBeUndefined();
    // electron-builder never runs in npm test.
    expect(pkg.scripts.test).not.toMatch(/package|electron-builder/);
  });
});
