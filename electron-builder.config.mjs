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

/** @type {import('electron-builder').Configuration} */
const config = {
  appId: 'org.registrydesk.desk',
  productName: 'Registry Desk',
  executableName: 'registry-desk',
  electronVersion,
  // The binary `npm install` downloaded (scripts/package.mjs refuses to start without it).
  electronDist: join(root, 'node_modules', 'electron', 'dist'),
  directories: { output: 'dist' },
  // electron-vite's output and package.json; electron-builder adds the production dependencies.
  files: [
    'out/**/*',
    'package.json',
    '!**/*.{map,md,ts,cc,h,c,gyp,gypi,mk,o,a}',
    '!node_modules/better-sqlite3/{deps,src}/**',
    '!node_modules/keytar/src/**',
    '!**/build/Release/obj*/**',
    '!**/build/Release/.deps/**',
  ],
  // The certificate fonts, outside the asar (process.resourcesPath/resources/fonts).
  extraResources: [{ from: 'resources/fonts', to: 'resources/fonts' }],
  asar: true,
  // Native addons cannot load from inside an asar.
  asarUnpack: ['**/*.node'],
  // electron-builder would rebuild the checkout's own node_modules for Electron in place, breaking
  // the Node-ABI builds the tests and the CLI use; the afterPack hook installs the Electron-ABI
  // copies of .electron-native (scripts/electron-native.mjs) into the package instead.
  npmRebuild: false,
  nodeGypRebuild: false,
  afterPack,
  linux: {
    target: ['AppImage', 'deb'],
    category: 'Office',
    maintainer: 'Registry Desk <desk@registrydesk.org>',
  },
  deb: { depends: ['libsecret-1-0', 'libnss3', 'libgtk-3-0', 'libxss1', 'libasound2'] },
  mac: {
    target: ['dmg', 'zip'],
    category: 'public.app-category.business',
    hardenedRuntime: true,
  },
  win: { target: ['nsis'] },
  nsis: { oneClick: false, perMachine: false },
};

export default config;
