// `npm run setup`: installs dependencies on any machine, with or without access to Electron's
// binary downloads. Plain `npm install` fails outright where the Electron binary cannot be fetched
// (CI, sandboxes, offline mirrors), so we install with the download skipped and then try the
// download ourselves; when it fails, `npm start` opens the web desk instead of the window. When it
// succeeds, the native addons get Electron-ABI copies beside node_modules (scripts/electron-native.mjs),
// while node_modules keeps the Node builds the tests and the web desk use.
// Uses only Node built-ins until the install is done: it runs before node_modules exists.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { keychainSetupNotice } from '../electron/core/desk/secrets/keychain-install.mjs';
import { unbuiltAddons } from './built-addons.mjs';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const installEnv = { ...process.env, ELECTRON_SKIP_BINARY_DOWNLOAD: '1' };
if (process.platform === 'linux' && !installEnv.npm_config_nodedir && existsSync('/usr/include/node/node.h')) {
  // Build native addons against the system's Node headers instead of downloading them.
  installEnv.npm_config_nodedir = '/usr';
}
// node-gyp compiles an addon's sources one at a time unless told otherwise: better-sqlite3's two
// (SQLite's amalgamation and the binding) side by side took 58 s instead of 96 s on 2 cores.
installEnv.JOBS ??= 'max';
const command = existsSync(join(root, 'package-lock.json')) ? 'ci' : 'install';
const install = spawnSync(npm, [command], { cwd: root, env: installEnv, stdio: 'inherit', shell: process.platform === 'win32' });
if (install.status !== 0) process.exit(install.status ?? 1);

// npm may skip an addon's install script (allowScripts) and still succeed: stop here, naming it.
const unbuilt = unbuiltAddons(root);
if (unbuilt.length > 0) {
  for (const problem of unbuilt) console.error(`setup: ${problem}`);
  console.error(
    'setup: FAILED: the native addons above are missing; the desk and the registry cannot open a database without better-sqlite3.',
  );
  process.exit(1);
}

// keytar is an optional dependency: where it cannot be built (no libsecret headers) npm leaves it out
// and the install still succeeds; say so once, with what to install.
const keytarDir = join(root, 'node_modules', 'keytar');
const keychainNotice = keychainSetupNotice({
  platform: process.platform,
  installed: existsSync(join(keytarDir, 'package.json')),
  built: existsSync(join(keytarDir, 'build', 'Release', 'keytar.node')),
});
if (keychainNotice) console.log(keychainNotice);

const NO_COPIES =
  'setup: native modules not built for Electron: there is no Electron binary to run them (`npm run rebuild:electron` builds them).';
if (process.env.CI || process.env.ELECTRON_SKIP_BINARY_DOWNLOAD === '1') {
  console.log('setup: Electron binary download skipped (CI or ELECTRON_SKIP_BINARY_DOWNLOAD=1).');
  console.log(NO_COPIES);
  process.exit(0);
}
const downloadEnv = { ...process.env };
delete downloadEnv.ELECTRON_SKIP_BINARY_DOWNLOAD;
const download = spawnSync(process.execPath, [join(root, 'node_modules', 'electron', 'install.js')], {
  cwd: join(root, 'node_modules', 'electron'),
  env: downloadEnv,
  stdio: 'ignore',
  timeout: 180_000,
});
if (download.status === 0 && existsSync(join(root, 'node_modules', 'electron', 'path.txt'))) {
  console.log('setup: Electron binary ready.');
  // Copies of better-sqlite3 and keytar built for Electron's ABI (skipped when they already match).
  // A failure leaves the install usable (the tests and the web desk use node_modules); the window
  // then reports what to run when it opens its first database.
  const { ensureElectronCopies } = await import('./electron-native.mjs');
  const status = await ensureElectronCopies({ root, log: (line) => console.log(line.replace(/^electron-native:/, 'setup:')) });
  if (status !== 0) console.log('setup: the desk window needs them: fix the cause above, then run `npm run rebuild:electron`.');
} else {
  console.log('setup: the Electron binary could not be downloaded; `npm start` will open the web desk instead.');
  console.log(NO_COPIES);
}
