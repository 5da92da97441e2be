// Types of scripts/electron-native.mjs (plain JavaScript: it runs before anything is compiled).
export interface Target {
  runtime: 'electron' | 'node';
  version: string;
  /** For a `node` target: its ABI (process.versions.modules) and where its headers are. */
  abi?: string;
  nodedir?: string;
}

export interface BuildRecord {
  target: { runtime: Target['runtime']; version: string };
  platform: NodeJS.Platform;
  arch: string;
  packages: Record<string, string>;
  /** Each addon's binary, relative to the copies' folder. */
  binaries: Record<string, string>;
  builtAt?: string;
}

export const NATIVE_DIR_NAME: string;
export const RECORD_FILE: string;
export const ADDONS: Record<'better-sqlite3' | 'keytar', string>;

export function installedElectron(root: string): Target | undefined;
export function currentNode(nodedir?: string): Target;
export function wantedRecord(root: string, target: Target): BuildRecord;
export function readRecord(dest: string): BuildRecord | undefined;
export function whyStale(dest: string, wanted: BuildRecord): string | undefined;

export interface BuildOptions {
  /** The app root whose node_modules hold the addons to copy. */
  root: string;
  target: Target;
  /** Defaults to <root>/.electron-native. */
  dest?: string;
  force?: boolean;
  compile?: (dest: string, target: Target) => Promise<void>;
}
export interface BuildResult {
  built: boolean;
  reason: string;
  dest: string;
  record: BuildRecord;
}
export function buildNativeCopies(options: BuildOptions): Promise<BuildResult>;

export function rebuildOptions(
  dest: string,
  target: Target,
): {
  options: {
    buildPath: string;
    projectRootPath: string;
    electronVersion: string;
    onlyModules: string[];
    force: boolean;
    mode: 'sequential';
    disablePreGypCopy: boolean;
    forceABI?: number;
    buildFromSource?: boolean;
  };
  env: NodeJS.ProcessEnv;
};
export function compileWithElectronRebuild(dest: string, target: Target): Promise<void>;
export function ensureElectronCopies(options: { root: string; force?: boolean; log?: (line: string) => void }): Promise<number>;
