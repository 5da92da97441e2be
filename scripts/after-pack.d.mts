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
export default function afterPack(context: unknown): Promise<void>;
