// `npm run package [-- electron-builder options]`: the installers of the desk with electron-builder
// (electron-builder.config.mjs): on Linux the AppImage and the .deb, on macOS the dmg/zip, on
// Windows the NSIS installer, each on its own kind of machine. It builds the app with electron-vite,
// makes sure the Electron-ABI native modules in .electron-native match the installed Electron
// (scripts/electron-native.mjs), then runs electron-builder, whose afterPack hook installs those
// modules and flips the fuses (scripts/after-pack.mjs). Without an Electron binary it builds the
// bundles, then says so in one line and exits non-zero: there is nothing to package
// (test/integration/packaging.test.ts packages with stand-ins for the downloads instead).
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { ensureElectronCopies } from './electron-native.mjs';
import { electronBinary } from './start';

const root = resolve(import.meta.dirname, '..');

/** Why there can be no package here, or undefined when there can. */
export function whyNoPackage(binary = electronBinary()): string | undefined {
  if ('missing' in binary) {
    return `package: no Electron binary here (${binary.missing}); electron-builder packages the binary npm run setup downloads, so nothing was built`;
  }
  return undefined;
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

async function main(): Promise<void> {
  // As far as this machine allows: the bundles build everywhere; packaging needs the binary.
  run(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build']);
  const reason = whyNoPackage();
  if (reason) {
    console.error(reason);
    process.exit(1);
  }
  const copies = await ensureElectronCopies({ root });
  if (copies !== 0) process.exit(copies);
  const builder = join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder');
  run(builder, ['--config', 'electron-builder.config.mjs', '--publish', 'never', ...process.argv.slice(2)]);
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  void main();
}
