// Where the certificate fonts live. In the source tree and in tests that is <project>/resources;
// a packaged Electron app keeps them elsewhere (process.resourcesPath), so the app passes the folder
// or sets REGISTRY_DESK_RESOURCES.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const RESOURCES_ENV = 'REGISTRY_DESK_RESOURCES';

/** The resources folder: the explicit override, else the env variable, else the nearest ancestor's resources/. */
export function resolveResourcesDir(override?: string): string {
  const explicit = override ?? process.env[RESOURCES_ENV];
  if (explicit) {
    const dir = resolve(explicit);
    if (!existsSync(join(dir, 'fonts'))) throw new Error(`resources folder ${dir} has no fonts/ folder`);
    return dir;
  }
  // Walk up from this file rather than trusting process.cwd(): tests, the CLI and the Electron main
  // process all start in different folders.
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'resources');
    if (existsSync(join(candidate, 'fonts'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) break;
    dir = parent;
  }
  throw new Error(`no resources/fonts folder above ${fileURLToPath(import.meta.url)}; set ${RESOURCES_ENV}`);
}
