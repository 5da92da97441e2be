// electron-builder's configuration (`npm run package`, through scripts/package.mjs). Plain data
// plus the afterPack hook, so test/unit/guardrails/packaging.test.ts reads it as it is.
// Signing and notarization come only from the environment (never from this file):
// - macOS and Windows code signing: CSC_LINK (a .p12/.pfx file or its base64) and CSC_KEY_PASSWORD;
//   WIN_CSC_LINK / WIN_CSC_KEY_PASSWORD override them for Windows when building both on one Mac.
// - macOS notarization: APPLE_API_KEY, APPLE_API_KEY_ID and APPLE_API_ISSUER (or APPLE_ID,
//   APPLE_APP_SPECIFIC_PASSWORD and APPLE_TEAM_ID); without them the app is not notarized.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import afterPack from './scripts/after-pack.mjs';

const root = import.meta.dirname;
/** The installed electron package: the packaged app gets exactly the Electron the checkout uses. */
const electronVersion = JSON.parse(readFileSync(join(root, 'node_modules', 'electron', 'package.json'), 'utf8')).version;

/** What the packaged app holds of out/: the Electron shell, its preload and the page. */
export const DESKTOP_BUNDLES = ['out/main/**/*', 'out/preload/**/*', 'out/renderer/**/*'];
/**
 * Never packed: sources and build leftovers of the addons, better-sqlite3's test-only SQLite
 * extension, and pg-native with its libpq addon (the registry's PostgreSQL driver; the desk
 * talks to a registry over HTTP and keeps its own data in SQLite).
 */
export const EXCLUDED_FILES = [
  '**/*.{map,md,ts,cc,h,c,gyp,gypi,mk,o,a}',
  'node_modules/better-sqlite3/{deps,src}/**',
  'node_modules/better-sqlite3/build/Release/test_extension.node',
  'node_modules/keytar/src/**',
  'node_modules/{pg-native,libpq}{,/**}',
  '**/build/Release/obj*/**',
  '**/build/Release/.deps/**',
];
/** electron-builder 26's default `deb.depends` (FpmTarget.getDefaultDepends): what Electron needs. */
export const ELECTRON_BUILDER_DEB_DEPENDS = [
  'libgtk-3-0',
  'libnotify4',
  'libnss3',
  'libxss1',
  'libxtst6',
  'xdg-utils',
  'libatspi2.0-0',
  'libuuid1',
  'libsecret-1-0',
];
/** Ours on top: GPU buffers (Electron fails to start without libgbm) and sound for notifications. */
export const DESK_DEB_DEPENDS = ['libgbm1', 'libasound2'];

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'org.registrydesk.desk',
  productName: 'Registry Desk',
  executableName: 'registry-desk',
  electronVersion,
  // The binary `npm install` downloaded (scripts/package.mjs refuses to start without it).
  electronDist: join(root, 'node_modules', 'electron', 'dist'),
  directories: { output: 'dist' },
  // The desktop bundles only (out/web and the registry's CLI bundles stay out even when a bench or
  // e2e run left them in out/) and package.json; electron-builder adds the production dependencies,
  // less what the desk never loads (EXCLUDED_FILES).
  files: [...DESKTOP_BUNDLES, 'package.json', ...EXCLUDED_FILES.map((pattern) => `!${pattern}`)],
  // The certificate fonts, outside the asar (process.resourcesPath/resources/fonts).
  extraResources: [{ from: 'resources/fonts', to: 'resources/fonts' }],
  // The icon (scripts/draw-icon.mjs): a folder of sizes for Linux, the largest for macOS and Windows.
  icon: 'resources/icons/1024x1024.png',
  asar: true,
  // Native addons cannot load from inside an asar.
  asarUnpack: ['**/*.node'],
  // electron-builder would rebuild the checkout's own node_modules for Electron in place, breaking
  // the Node-ABI builds the tests and the CLI use; the afterPack hook installs the Electron-ABI
  // copies of .electron-native (scripts/electron-native.mjs) into the package instead.
  npmRebuild: false,
  nodeGypRebuild: false,
  afterPack,
  // Updates (electron-updater, generic provider): the folder the release manager uploads the
  // installers, latest*.yml and their .sig files to (docs/operations.md). Same URL as
  // electron/core/desk/updates/update-feed.ts, which the app checks the signatures against.
  publish: [{ provider: 'generic', url: 'https://registrydesk.org/updates/' }],
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Office',
    maintainer: 'Registry Desk <desk@registrydesk.org>',
    icon: 'resources/icons',
  },
  // Setting `depends` replaces electron-builder's list, so it is restated here with ours added.
  deb: { depends: [...ELECTRON_BUILDER_DEB_DEPENDS, ...DESK_DEB_DEPENDS] },
  mac: {
    target: ['dmg', 'zip'],
    category: 'public.app-category.business',
    hardenedRuntime: true,
  },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false },
};

export default config;
