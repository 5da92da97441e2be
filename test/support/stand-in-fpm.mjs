#!/usr/bin/env node
// A stand-in for fpm (electron-builder downloads fpm, a Ruby tool, to make .deb files; here there is
// no download). electron-builder calls it through CUSTOM_FPM_PATH with the arguments it would give
// fpm; this builds the same .deb with dpkg-deb: the files mapped `source=destination`, the control
// file from --name/--version/--architecture/--maintainer/--url/--description and every -d (Depends)
// and --deb-recommends, the maintainer scripts from --after-install/--after-remove. Only the
// options electron-builder passes for `-t deb` are understood; anything else fails loudly.
import { spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, cpSync, mkdirSync, mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';

const VALUED = new Set([
  '-s',
  '-t',
  '-d',
  '--deb-recommends',
  '--deb-compression',
  '--architecture',
  '--after-install',
  '--after-remove',
  '--description',
  '--version',
  '--package',
  '--name',
  '--maintainer',
  '--vendor',
  '--url',
  '--category',
  '--deb-priority',
  '--license',
  '--iteration',
  '--log',
]);
const FLAGS = new Set(['--force', '--debug']);

const options = { '-d': [], '--deb-recommends': [] };
const mappings = [];
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i += 1) {
  const arg = argv[i];
  if (FLAGS.has(arg)) continue;
  if (VALUED.has(arg)) {
    const value = argv[(i += 1)];
    if (Array.isArray(options[arg])) options[arg].push(value);
    else options[arg] = value;
  } else if (!arg.startsWith('-') && arg.includes('=')) {
    const at = arg.lastIndexOf('=');
    mappings.push([arg.slice(0, at), arg.slice(at + 1)]);
  } else {
    console.error(`stand-in fpm: unknown argument ${arg}`);
    process.exit(2);
  }
}
if (options['-t'] !== 'deb' || options['-s'] !== 'dir') {
  console.error('stand-in fpm: only -s dir -t deb');
  process.exit(2);
}

const stage = mkdtempSync(join(tmpdir(), 'stand-in-fpm-'));
try {
  for (const [source, destination] of mappings) {
    const into = join(stage, destination.replace(/\/$/, ''));
    mkdirSync(dirname(into), { recursive: true });
    if (statSync(source).isDirectory()) cpSync(source.replace(/\/$/, ''), into, { recursive: true, verbatimSymlinks: true });
    else copyFileSync(source, into);
  }
  mkdirSync(join(stage, 'DEBIAN'));
  const description = options['--description'].replace(/\n(?!\s)/g, '\n ');
  const fields = [
    ['Package', options['--name']],
    ['Version', options['--version']],
    ['Architecture', options['--architecture']],
    ['Maintainer', options['--maintainer']],
    ['Depends', options['-d'].join(', ')],
    ['Recommends', options['--deb-recommends'].join(', ')],
    ['Section', options['--category']],
    ['Priority', options['--deb-priority']],
    ['Homepage', options['--url']],
    ['Description', description],
  ].filter(([, value]) => value);
  writeFileSync(join(stage, 'DEBIAN', 'control'), `${fields.map(([name, value]) => `${name}: ${value}`).join('\n')}\n`);
  for (const [option, script] of [
    ['--after-install', 'postinst'],
    ['--after-remove', 'postrm'],
  ]) {
    if (!options[option]) continue;
    copyFileSync(options[option], join(stage, 'DEBIAN', script));
    chmodSync(join(stage, 'DEBIAN', script), 0o755);
  }
  // Fast compression: the stand-in's .deb is read back by a test, never installed by anyone.
  const result = spawnSync('dpkg-deb', ['--root-owner-group', '-Zgzip', '-z1', '--build', stage, options['--package']], {
    stdio: 'inherit',
  });
  process.exitCode = result.status ?? 1;
} finally {
  rmSync(stage, { recursive: true, force: true });
}
