// electron-builder's afterPack hook (electron-builder.config.mjs): runs on the unpacked app before
// it is signed and wrapped into an installer. It
// 1. puts the Electron-ABI builds of better-sqlite3 and keytar (.electron-native, built by
//    scripts/electron-native.mjs for the installed Electron) in place of the Node-ABI binaries that
//    node_modules holds for the tests, inside app.asar.unpacked (electron-builder's own rebuild is
//    off: it would rebuild the checkout's node_modules in place and break the tests and the CLI);
//    then checks that those (and nothing else native) are what the package holds;
// 2. flips Electron's fuses with @electron/fuses, so the packaged binary cannot be used as a plain
//    Node (RunAsNode, NODE_OPTIONS, --inspect), loads only its own asar, checks its integrity where
//    Electron supports that (macOS, Windows) and encrypts its cookies.
// Plain JavaScript, like the configuration that loads it.
import { copyFileSync, existsSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { flipFuses, FuseV1Options, FuseVersion } from '@electron/fuses';
import { electronAbi, whyNotForElectron } from './addon-abi.mjs';
import { ADDONS, NATIVE_DIR_NAME, readRecord } from './electron-native.mjs';

/** The fuses of the packaged app, by @electron/fuses' option name. */
export const FUSES = {
  RunAsNode: false,
  EnableNodeOptionsEnvironmentVariable: false,
  EnableNodeCliInspectArguments: false,
  GrantFileProtocolExtraPrivileges: false,
  EnableEmbeddedAsarIntegrityValidation: true,
  OnlyLoadAppFromAsar: true,
  EnableCookieEncryption: true,
};

/** The @electron/fuses configuration made of FUSES (every named fuse must exist in this @electron/fuses). */
export function fuseConfig(platform, arch) {
  const config = { version: FuseVersion.V1, resetAdHocDarwinSignature: platform === 'darwin' && arch === 'arm64' };
  for (const [name, value] of Object.entries(FUSES)) {
    const index = FuseV1Options[name];
    if (typeof index !== 'number') throw new Error(`@electron/fuses has no fuse named ${name}`);
    config[index] = value;
  }
  return config;
}

const ARCH_NAMES = { 0: 'ia32', 1: 'x64', 2: 'armv7l', 3: 'arm64', 4: 'universal' };

/** The packaged app's Electron executable and resources folder, by platform. */
export function packagedPaths(platform, appOutDir, productFilename, executableName) {
  if (platform === 'darwin' || platform === 'mas') {
    const bundle = join(appOutDir, `${productFilename}.app`);
    return { executable: bundle, resources: join(bundle, 'Contents', 'Resources') };
  }
  if (platform === 'win32') return { executable: join(appOutDir, `${productFilename}.exe`), resources: join(appOutDir, 'resources') };
  return { executable: join(appOutDir, executableName), resources: join(appOutDir, 'resources') };
}

/**
 * Copies the Electron-ABI addon binaries from `nativeDir` (.electron-native) over those in the
 * packaged app's app.asar.unpacked, after checking they were built for this Electron, platform and arch.
 */
export function installElectronAddons({ nativeDir, resources, electronVersion, platform, arch }) {
  const record = readRecord(nativeDir);
  const want = `electron ${electronVersion} ${platform}-${arch}`;
  const built = record ? `${record.target.runtime} ${record.target.version} ${record.platform}-${record.arch}` : 'nothing';
  if (built !== want) {
    throw new Error(
      `package: the native modules in ${nativeDir} are built for ${built}, not ${want}; run npm run rebuild:electron on a ${platform}-${arch} machine`,
    );
  }
  for (const [name, file] of Object.entries(ADDONS)) {
    const target = join(resources, 'app.asar.unpacked', 'node_modules', name, file);
    if (!existsSync(target)) throw new Error(`package: ${name}'s binary is not unpacked at ${target} (asarUnpack must list it)`);
    copyFileSync(join(nativeDir, record.binaries[name]), target);
  }
}

/** Every .node file under `dir`, relative to it. */
function nativeFiles(dir, base = dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return nativeFiles(path, base);
    return entry.name.endsWith('.node') ? [relative(base, path).split('\\').join('/')] : [];
  });
}

/**
 * Checks the packed app loads exactly the addons of ADDONS, each built for Electron's module
 * version `abi` (or Node-API): a Node-ABI build, or any other .node file (a bundler's copy of an
 * addon in out/main/chunks, a test-only extension), fails the package.
 */
export function checkPackedAddons({ resources, abi }) {
  const unpacked = join(resources, 'app.asar.unpacked');
  const expected = Object.entries(ADDONS).map(([name, file]) => `node_modules/${name}/${file}`);
  const found = nativeFiles(unpacked);
  const strays = found.filter((file) => !expected.includes(file));
  if (strays.length > 0) throw new Error(`package: native files the desk must not ship: ${strays.join(', ')}`);
  for (const file of expected) {
    const why = whyNotForElectron(join(unpacked, file), abi);
    if (why) throw new Error(`package: ${why}; run npm run rebuild:electron`);
  }
}

/**
 * The hook; `nativeDir` defaults to the project's .electron-native (the packaging test points it at
 * stand-in builds, as there is no Electron here to build real ones for).
 */
export function makeAfterPack({ nativeDir } = {}) {
  /** `context` is electron-builder's AfterPackContext. */
  return async function afterPack(context) {
    const platform = context.electronPlatformName;
    const arch = ARCH_NAMES[context.arch] ?? String(context.arch);
    const { packager } = context;
    const paths = packagedPaths(platform, context.appOutDir, packager.appInfo.productFilename, packager.executableName);
    installElectronAddons({
      nativeDir: nativeDir ?? join(packager.projectDir, NATIVE_DIR_NAME),
      resources: paths.resources,
      electronVersion: packager.config.electronVersion,
      platform: platform === 'mas' ? 'darwin' : platform,
      arch,
    });
    checkPackedAddons({ resources: paths.resources, abi: electronAbi(packager.projectDir) });
    await flipFuses(paths.executable, fuseConfig(platform, arch));
  };
}

export default makeAfterPack();
