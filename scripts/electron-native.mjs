// Electron-ABI copies of the native addons (better-sqlite3, keytar), kept apart from node_modules.
//
// node_modules keeps the addons built for Node's ABI: the tests, the CLI and the web desk run under
// plain Node. Electron's main process cannot load those, so this copies the two packages (and what
// they need to compile) into <root>/.electron-native/node_modules, rebuilds THOSE with
// @electron/rebuild for the installed electron version, and records what they were built for in
// .electron-native/build-info.json. electron/core/platform/db/native-modules.ts loads the copies when it runs
// under Electron and that record matches.
//
// `npm run setup` runs this after the Electron binary download (skipping when the copies already
// match); `npm run rebuild:electron` (this file with --force) redoes it.
// Node built-ins, @electron/rebuild and the app's own atomic-write helper (plain JavaScript too).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { writeFileAtomicSync } from '../electron/core/platform/atomic-write.mjs';

/** The copies' folder, under the app root (the folder with the app's package.json). */
export const NATIVE_DIR_NAME = '.electron-native';
/** What the copies were built for; written last, so its presence means a complete build. */
export const RECORD_FILE = 'build-info.json';
/** The addons, each with its binary inside its package once built. */
export const ADDONS = {
  'better-sqlite3': 'build/Release/better_sqlite3.node',
  keytar: 'build/Release/keytar.node',
};
/** Addons that are optional dependencies: left out of the copies when npm left them out (keytar without libsecret). */
const OPTIONAL_ADDONS = new Set(['keytar']);
/** Packages an addon's binding.gyp needs beside it to compile (keytar includes node-addon-api's headers). */
const BUILD_DEPENDENCIES = { 'better-sqlite3': [], keytar: ['node-addon-api'] };
/** Environment settings that would make node-gyp build for something other than the Electron we target. */
const FOREIGN_GYP_SETTINGS = ['nodedir', 'target', 'runtime', 'disturl', 'dist_url'];

/** @typedef {{ runtime: 'electron' | 'node', version: string, abi?: string, nodedir?: string }} Target */

/** The installed electron package as a build target, or undefined when it is not installed. */
export function installedElectron(root) {
  const version = packageVersion(join(root, 'node_modules', 'electron'));
  return version ? { runtime: 'electron', version } : undefined;
}

/**
 * The Node running this script as a build target, compiled against its own headers (nodedir, e.g.
 * Debian's /usr): what the tests use to exercise everything here without Electron.
 */
export function currentNode(nodedir = defaultNodedir()) {
  return { runtime: 'node', version: process.versions.node, abi: process.versions.modules, ...(nodedir ? { nodedir } : {}) };
}

function defaultNodedir() {
  if (process.env.npm_config_nodedir) return process.env.npm_config_nodedir;
  return existsSync('/usr/include/node/node.h') ? '/usr' : undefined;
}

/** What a build of the copies from `root`'s node_modules for `target` is recorded as (without its time). */
export function wantedRecord(root, target) {
  const packages = {};
  for (const name of Object.keys(ADDONS)) {
    const dir = join(root, 'node_modules', name);
    const version = packageVersion(dir);
    if (!version && OPTIONAL_ADDONS.has(name)) continue;
    if (!version) throw new Error(`${name} is not installed in ${join(root, 'node_modules')} (run npm run setup first)`);
    packages[name] = version;
    for (const dependency of BUILD_DEPENDENCIES[name]) packages[dependency] = packageVersion(resolvePackageDir(dir, dependency));
  }
  return {
    target: { runtime: target.runtime, version: target.version },
    platform: process.platform,
    arch: process.arch,
    packages,
    binaries: Object.fromEntries(
      Object.entries(ADDONS)
        .filter(([name]) => name in packages)
        .map(([name, file]) => [name, `node_modules/${name}/${file}`]),
    ),
  };
}

/** The record of the copies in `dest`, or undefined when there is none (never built, or a build did not finish). */
export function readRecord(dest) {
  try {
    return JSON.parse(readFileSync(join(dest, RECORD_FILE), 'utf8'));
  } catch {
    return undefined;
  }
}

/** Why the copies in `dest` do not match `wanted`, or undefined when they do (and their binaries are there). */
export function whyStale(dest, wanted) {
  const record = readRecord(dest);
  if (!record) return 'not built yet';
  const built = `${record.target?.runtime} ${record.target?.version} ${record.platform}-${record.arch}`;
  const want = `${wanted.target.runtime} ${wanted.target.version} ${wanted.platform}-${wanted.arch}`;
  if (built !== want) return `built for ${built}, not ${want}`;
  for (const [name, version] of Object.entries(wanted.packages)) {
    if (record.packages?.[name] !== version) return `${name} ${record.packages?.[name] ?? '(none)'} was copied, ${version} is installed`;
  }
  for (const file of Object.values(wanted.binaries)) {
    if (!existsSync(join(dest, file))) return `${file} is missing`;
  }
  return undefined;
}

/**
 * Copies the addons from `root`'s node_modules into `dest` and compiles them for `target`, unless the
 * copies there already match (or `force`). `compile(dest, target)` defaults to @electron/rebuild.
 * Returns whether it built and, when it did not, why not.
 */
export async function buildNativeCopies({
  root,
  target,
  dest = join(root, NATIVE_DIR_NAME),
  force = false,
  compile = compileWithElectronRebuild,
}) {
  const wanted = wantedRecord(root, target);
  const stale = whyStale(dest, wanted);
  if (!force && !stale) return { built: false, reason: 'up to date', dest, record: readRecord(dest) };

  // The record goes first: an interrupted build leaves copies without one, which nothing loads.
  rmSync(join(dest, RECORD_FILE), { force: true });
  rmSync(join(dest, 'node_modules'), { recursive: true, force: true });
  mkdirSync(join(dest, 'node_modules'), { recursive: true });
  for (const name of Object.keys(wanted.binaries)) {
    const source = join(root, 'node_modules', name);
    copyPackage(source, join(dest, 'node_modules', name));
    for (const dependency of BUILD_DEPENDENCIES[name]) {
      const into = join(dest, 'node_modules', dependency);
      if (!existsSync(into)) copyPackage(resolvePackageDir(source, dependency), into);
    }
  }
  writeFileSync(
    join(dest, 'package.json'),
    `${JSON.stringify(
      {
        name: 'registry-desk-electron-native',
        private: true,
        description: `Copies of the native addons built for ${target.runtime} ${target.version} by scripts/electron-native.mjs; regenerated, never edited.`,
        dependencies: Object.fromEntries(Object.keys(wanted.binaries).map((name) => [name, wanted.packages[name]])),
      },
      null,
      2,
    )}\n`,
  );

  await compile(dest, target);

  for (const file of Object.values(wanted.binaries)) {
    if (!existsSync(join(dest, file))) throw new Error(`the build finished without ${file}`);
  }
  const record = { ...wanted, builtAt: new Date().toISOString() };
  writeFileAtomicSync(join(dest, RECORD_FILE), `${JSON.stringify(record, null, 2)}\n`, { mode: 0o644 });
  return { built: true, reason: force && !stale ? 'forced' : stale, dest, record };
}

/** A package folder without its build output (`build/`, `bin/`): the copy is compiled afresh. */
function copyPackage(from, to) {
  const skip = new Set([join(from, 'build'), join(from, 'bin')]);
  cpSync(from, to, { recursive: true, dereference: true, filter: (path) => !skip.has(path) });
}

/**
 * The options and environment @electron/rebuild gets for `target`: only the copies in `dest` (its
 * module search stops at `dest`, so the app's own node_modules are never touched), from source or
 * from the addons' published prebuilt binaries for that Electron.
 *
 * For a `node` target (the tests) it is pointed at the running Node instead: @electron/rebuild
 * always hands node-gyp `--runtime=electron --target=<version> --dist-url=<Electron's headers>`, but
 * node-gyp compiles against `nodedir` when that is set, so with this Node's version, ABI and headers
 * the same code path builds for this Node, without downloading anything.
 */
export function rebuildOptions(dest, target) {
  const env = { ...process.env };
  for (const key of Object.keys(env)) {
    if (FOREIGN_GYP_SETTINGS.some((setting) => key.toLowerCase() === `npm_config_${setting}`)) delete env[key];
  }
  const options = {
    buildPath: dest,
    projectRootPath: dest,
    electronVersion: target.version,
    onlyModules: Object.keys(ADDONS),
    force: true,
    mode: 'sequential',
    // node-gyp compiles an addon's sources one at a time by default: better-sqlite3's two (SQLite's
    // amalgamation, the binding) side by side took 58 s instead of 96 s on 2 cores.
    jobs: availableParallelism(),
    disablePreGypCopy: true,
  };
  if (target.runtime === 'node') {
    if (!target.nodedir) throw new Error('building for Node needs its headers (nodedir), e.g. /usr on Debian with libnode-dev');
    Object.assign(options, { forceABI: Number(target.abi), buildFromSource: true });
    env.npm_config_nodedir = target.nodedir;
  }
  return { options, env };
}

/** Compiles the copies in `dest` for `target` with @electron/rebuild (node-gyp in a child process). */
export async function compileWithElectronRebuild(dest, target) {
  const { rebuild } = await import('@electron/rebuild');
  const { options, env } = rebuildOptions(dest, target);
  // @electron/rebuild hands node-gyp a copy of process.env: swap ours for the duration.
  const saved = process.env;
  process.env = env;
  try {
    await rebuild(options);
  } finally {
    process.env = saved;
  }
}

function packageVersion(dir) {
  try {
    return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')).version;
  } catch {
    return undefined;
  }
}

/** Where `name` resolves from the package in `fromDir` (Node's lookup: its own node_modules, then up). */
function resolvePackageDir(fromDir, name) {
  for (let dir = fromDir; ; dir = dirname(dir)) {
    const candidate = join(dir, 'node_modules', name);
    if (existsSync(join(candidate, 'package.json'))) return candidate;
    if (dirname(dir) === dir) throw new Error(`${name} (needed to build ${basename(fromDir)}) is not installed`);
  }
}

/** Builds the copies for the installed Electron; the CLI and `npm run setup`. Returns an exit code. */
export async function ensureElectronCopies({ root, force = false, log = console.log }) {
  const target = installedElectron(root);
  if (!target) {
    log('electron-native: the electron package is not installed, so there is nothing to build for.');
    return 1;
  }
  const where = relative(process.cwd(), join(root, NATIVE_DIR_NAME)) || NATIVE_DIR_NAME;
  const started = Date.now();
  try {
    const result = await buildNativeCopies({ root, target, force });
    const what = Object.keys(ADDONS)
      .map((name) => `${name} ${result.record.packages[name]}`)
      .join(' and ');
    if (!result.built) {
      log(
        `electron-native: ${what} in ${where}${sep} are already built for Electron ${target.version} (npm run rebuild:electron rebuilds them).`,
      );
    } else {
      log(
        `electron-native: built ${what} for Electron ${target.version} in ${where}${sep} (${Math.round((Date.now() - started) / 1000)} s; ${result.reason}).`,
      );
    }
    return 0;
  } catch (error) {
    const why = error instanceof Error ? error.message : String(error);
    log(
      `electron-native: could not build the native modules for Electron ${target.version} (this downloads a prebuilt binary or Electron's headers, then compiles): ${why}`,
    );
    return 1;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  process.exitCode = await ensureElectronCopies({ root, force: process.argv.includes('--force') });
}
