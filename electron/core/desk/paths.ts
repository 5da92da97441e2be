// Where the desk keeps its files. One data folder holds everything, so a test (or a second desk
// profile) is just another folder:
//   <dataDir>/connections.json          non-secret connection list (no keys, no tokens)
//   <dataDir>/settings.json             theme, sync interval, window state
//   <dataDir>/cache/<connectionId>.sqlite  the sync cache of one connection
//   <dataDir>/embedded-registry/        the embedded registry's own data folder
//   <dataDir>/secrets/                  the passphrase-encrypted key files, when chosen
import { join } from 'node:path';

export interface DeskPaths {
  dataDir: string;
  connectionsFile: string;
  settingsFile: string;
  cacheDir: string;
  embeddedRegistryDir: string;
  secretsDir: string;
  cacheFile(connectionId: string): string;
}

/** Connection ids become file names: only a safe alphabet may reach the file system. */
const SAFE_ID = /^[A-Za-z0-9_-]{1,100}$/;

export function deskPaths(dataDir: string): DeskPaths {
  const cacheDir = join(dataDir, 'cache');
  return {
    dataDir,
    connectionsFile: join(dataDir, 'connections.json'),
    settingsFile: join(dataDir, 'settings.json'),
    cacheDir,
    embeddedRegistryDir: join(dataDir, 'embedded-registry'),
    secretsDir: join(dataDir, 'secrets'),
    cacheFile(connectionId) {
      if (!SAFE_ID.test(connectionId)) throw new Error(`connection id ${JSON.stringify(connectionId)} is not a safe file name`);
      return join(cacheDir, `${connectionId}.sqlite`);
    },
  };
}
