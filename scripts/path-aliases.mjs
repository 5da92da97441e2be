// The import aliases: one per room of the tree, so an import says which room it reaches into
// (`@registry/http/app`) instead of how many folders it climbs (`../../../registry/http/app`).
// This list is the source: tsconfig.base.json's `paths` repeat it for tsc, tsx, Playwright and
// dependency-cruiser (test/unit/guardrails/path-aliases.test.ts keeps the two equal), and the Vite
// builds (electron-vite, vitest, scripts/build-web-desk.ts) read it through viteAliases().
// Plain-Node .mjs files (this one, the tsx bootstraps, scripts/*.mjs) keep relative imports: Node
// itself knows no aliases.
import { relative, resolve, sep } from 'node:path';

/** Alias → folder (from the repository root). The longest folder wins when two contain a file. */
export const PATH_ALIASES = {
  '@registry': 'electron/core/registry',
  '@desk': 'electron/core/desk',
  '@platform': 'electron/core/platform',
  '@main': 'electron/main',
  '@preload': 'electron/preload',
  '@shared': 'shared',
  '@renderer': 'renderer/src',
  '@test': 'test',
  '@bench': 'bench',
  '@scripts': 'scripts',
};

/** Vite's resolve.alias: each alias to its folder's absolute path under `root`. */
export function viteAliases(root) {
  return Object.fromEntries(Object.entries(PATH_ALIASES).map(([alias, folder]) => [alias, resolve(root, folder)]));
}

/** True for a relative import that climbs two or more folders (`../../x`). */
export function climbsTwoOrMore(specifier) {
  return /^(\.\.\/){2,}/.test(specifier);
}

/**
 * The aliased specifier for an import of `target` (an absolute path as written, without resolving
 * extensions) from a repository rooted at `root`, or undefined when no alias folder holds it.
 */
export function aliasedSpecifier(target, root) {
  const path = relative(root, target).split(sep).join('/');
  let best;
  for (const [alias, folder] of Object.entries(PATH_ALIASES)) {
    if (path !== folder && !path.startsWith(`${folder}/`)) continue;
    if (!best || folder.length > best.folder.length) best = { alias, folder };
  }
  // (a folder itself has no alias: each alias names what is inside its folder)
  if (!best || path === best.folder) return undefined;
  return `${best.alias}${path.slice(best.folder.length)}`;
}
