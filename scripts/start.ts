// `npm start [-- <desk options>]`: the desk window when Electron can run here, the web desk otherwise.
// Electron needs its binary (downloaded by `npm run setup` when possible) and, on Linux, a display.
// The native modules Electron loads are separate Electron-ABI copies in .electron-native, built by
// setup after the download (`npm run rebuild:electron` redoes it); node_modules stays built for Node.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, resolve } from 'node:path';

const root = resolve(import.meta.dirname, '..');

/** The Electron executable, or why there is none. */
export function electronBinary(): { path: string } | { missing: string } {
  const packageDir = join(root, 'node_modules', 'electron');
  const pathFile = join(packageDir, 'path.txt');
  if (!existsSync(pathFile)) return { missing: 'no binary downloaded' };
  try {
    const executable = createRequire(import.meta.url)('electron') as unknown;
    if (typeof executable === 'string' && existsSync(executable)) return { path: executable };
  } catch {
    // fall through
  }
  const guess = join(packageDir, 'dist', readFileSync(pathFile, 'utf8').trim());
  return existsSync(guess) ? { path: guess } : { missing: 'the binary named in path.txt is not there' };
}

export function hasDisplay(platform: NodeJS.Platform = process.platform, env: NodeJS.ProcessEnv = process.env): boolean {
  if (platform === 'darwin' || platform === 'win32') return true;
  return Boolean(env.DISPLAY || env.WAYLAND_DISPLAY);
}

/** Why the window cannot open here, or undefined when it can. */
export function whyNoWindow(binary = electronBinary(), display = hasDisplay()): string | undefined {
  if ('missing' in binary) return `Electron is not available here (${binary.missing})`;
  if (!display) return 'there is no display here (neither DISPLAY nor WAYLAND_DISPLAY is set)';
  return undefined;
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const reason = whyNoWindow();
  if (reason) {
    console.log(`${reason}: starting the web desk instead`);
    const { runWebDesk } = await import('../electron/core/desk/web-host/cli');
    await runWebDesk(args);
    return;
  }
  const binary = electronBinary() as { path: string };
  if (!existsSync(join(root, 'out', 'main', 'index.js'))) {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const build = spawnSync(npm, ['run', 'build'], { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
    if (build.status !== 0) process.exit(build.status ?? 1);
  }
  const child = spawn(binary.path, ['.', ...args], { cwd: root, stdio: 'inherit' });
  const forward = (signal: NodeJS.Signals) => child.kill(signal);
  process.once('SIGINT', forward);
  process.once('SIGTERM', forward);
  child.on('exit', (code) => process.exit(code ?? 0));
}

if (process.argv[1] && resolve(process.argv[1]) === resolve(import.meta.filename)) {
  main().catch((error: unknown) => {
    console.error(`the desk could not start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
