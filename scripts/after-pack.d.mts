// Types of scripts/after-pack.mjs (plain JavaScript: electron-builder loads it).
import type { FuseV1Config } from '@electron/fuses';

export const FUSES: Record<
  | 'RunAsNode'
  | 'EnableNodeOptionsEnvironmentVariable'
  | 'EnableNodeCliInspectArguments'
  | 'GrantFileProtocolExtraPrivileges'
  | 'EnableEmbeddedAsarIntegrityValidation'
  | 'OnlyLoadAppFromAsar'
  | 'EnableCookieEncryption',
  boolean
>;
export function fuseConfig(platform: string, arch: string): FuseV1Config;
export function packagedPaths(
  platform: string,
  appOutDir: string,
  productFilename: string,
  executableName: string,
): { executable: string; resources: string };
export function installElectronAddons(options: {
  nativeDir: string;
  resources: string;
  electronVersion: string;
  platform: string;
  arch: string;
}): void;
/** Throws when the packed app holds a .node file other than the addons, or one not built for Electron's module version `abi`. */
export function checkPackedAddons(options: { resources: string; abi: number }): void;
export function makeAfterPack(options?: { nativeDir?: string }): (context: unknown) => Promise<void>;
export default function afterPack(context: unknown): Promise<void>;
