// Which build of the native addons (better-sqlite3, keytar) this process loads.
//
// node_modules holds them built for Node's ABI (the tests, the CLI and the web desk run under plain
// Node). Electron's main process needs builds for Electron's ABI: scripts/electron-native.mjs makes
// them as copies in <app root>/.electron-native and records what they were built for. Here:
// - plain Node: node_modules, exactly as before;
// - Electron with those copies (a checkout after `npm run setup`): the copies;
// - Electron without them (a packaged app, whose node_modules electron-builder rebuilt): node_modules.
// Never imports electron: Electron is recognized by process.versions.electron, and the app root is
// the nearest folder above this file with a package.json (the checkout, or app.asar when packaged),
// which holds from the sources (electron/core/platform/db) and from the bundle (out/main) alike.
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** What to run when an addon cannot load under Electron. */
export const REBUILD_COMMAND = 'npm run rebuild:electron';
/** The copies' folder under the app root, and their record (as written by scripts/electron-native.mjs). */
export const NATIVE_DIR_NAME = '.electron-native';
export const RECORD_FILE = 'build-info.json';
const BETTER_SQLITE3_BINARY = ['node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'];
const KEYTAR_PACKAGE = ['node_modules', 'keytar'];

/** A runtime the addons are built for. */
export interface RuntimeTarget {
  runtime: 'electron' | 'node';
  version: string;
}

export interface NativeModules {
  /** The runtime that loads its own builds (Electron), or undefined under plain Node. */
  target: RuntimeTarget | undefined;
  source: 'copies' | 'node_modules';
  /** better-sqlite3's `nativeBinding`: the copy's binary, or undefined for better-sqlite3's own lookup. */
  betterSqlite3Binding: string | undefined;
  /** The keytar package to load: the copy's folder, or undefined for `import('keytar')`. */
  keytarDir: string | undefined;
  /** Why copies that exist cannot be used (built for another Electron or other versions); loading reports it. */
  problem: string | undefined;
}

interface BuildRecord {
  target?: Partial<RuntimeTarget>;
  platform?: string;
  arch?: string;
  packages?: Record<string, string>;
}

/** The runtime this process needs its own builds for: Electron, or undefined under plain Node. */
export function runningTarget(versions: NodeJS.ProcessVersions = process.versions): RuntimeTarget | undefined {
  const electron = (versions as NodeJS.ProcessVersions & { electron?: string }).electron;
  return electron ? { runtime: 'electron', version: electron } : undefined;
}

/** The nearest folder at or above `start` holding a package.json, or undefined. */
export function appRootFrom(start: string): string | undefined {
  for (let dir = start; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) return undefined;
  }
}

export interface ChooseOptions {
  /** Defaults to the running process's (see runningTarget); undefined means plain Node. */
  target?: RuntimeTarget | undefined;
  /** The folder holding .electron-native; defaults to the app root above this file. */
  appRoot?: string;
  /** The copies' folder itself (overrides appRoot). */
  nativeDir?: string;
}

/** Which builds to load (see the top of this file). */
export function chooseNativeModules(options: ChooseOptions = {}): NativeModules {
  const target = 'target' in options ? options.target : runningTarget();
  const normal: NativeModules = {
    target,
    source: 'node_modules',
    betterSqlite3Binding: undefined,
    keytarDir: undefined,
    problem: undefined,
  };
  if (!target) return normal;
  const root = options.appRoot ?? appRootFrom(dirname(fileURLToPath(import.meta.url)));
  const dir = options.nativeDir ?? (root === undefined ? undefined : join(root, NATIVE_DIR_NAME));
  if (dir === undefined) return normal;
  const record = readRecord(dir);
  // No record: no copies (or a build that never finished). The normal modules are all there is.
  if (!record) return normal;
  const problem = mismatch(record, target, dir);
  if (problem) return { ...normal, problem };
  return {
    target,
    source: 'copies',
    betterSqlite3Binding: join(dir, ...BETTER_SQLITE3_BINARY),
    keytarDir: join(dir, ...KEYTAR_PACKAGE),
    problem: undefined,
  };
}

let current: NativeModules | undefined;

/** The choice for this process, made once. */
export function nativeModules(): NativeModules {
  current ??= chooseNativeModules();
  return current;
}

export function describeTarget(target: RuntimeTarget): string {
  return `${target.runtime === 'electron' ? 'Electron' : 'Node'} ${target.version}`;
}

/** The one sentence for an addon that cannot load under `target`: what failed, what to run, and the cause. */
export function rebuildMessage(what: string, target: RuntimeTarget, why: string): string {
  return `${what} could not be loaded in ${describeTarget(target)}; run \`${REBUILD_COMMAND}\` to build it for ${target.runtime === 'electron' ? 'this Electron' : 'this runtime'} (${why.replace(/\.$/, '')}).`;
}

/** An addon that cannot load under Electron; the message says what to run. */
export class NativeModuleError extends Error {
  override readonly name = 'NativeModuleError';
}

/** The first line of what a failed load threw. */
export function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0] ?? '';
}

function readRecord(dir: string): BuildRecord | undefined {
  try {
    const record = JSON.parse(readFileSync(join(dir, RECORD_FILE), 'utf8')) as unknown;
    return typeof record === 'object' && record !== null ? record : undefined;
  } catch {
    return undefined;
  }
}

function mismatch(record: BuildRecord, target: RuntimeTarget, dir: string): string | undefined {
  const built = record.target;
  if (
    built?.runtime !== target.runtime ||
    built.version !== target.version ||
    record.platform !== process.platform ||
    record.arch !== process.arch
  ) {
    const builtFor = built?.runtime && built.version ? describeTarget(built as RuntimeTarget) : 'an unknown runtime';
    return `the copies in ${dir} were built for ${builtFor} on ${record.platform}-${record.arch}`;
  }
  // better-sqlite3's JavaScript comes from node_modules and its binary from the copy: same version or nothing.
  for (const name of ['better-sqlite3', 'keytar']) {
    const installed = installedVersion(name);
    if (installed && record.packages?.[name] !== installed) {
      return `the copies in ${dir} hold ${name} ${record.packages?.[name] ?? '(none)'} but ${installed} is installed`;
    }
  }
  return undefined;
}

function installedVersion(name: string): string | undefined {
  try {
    const file = createRequire(import.meta.url).resolve(`${name}/package.json`);
    return (JSON.parse(readFileSync(file, 'utf8')) as { version?: string }).version;
  } catch {
    return undefined;
  }
}
