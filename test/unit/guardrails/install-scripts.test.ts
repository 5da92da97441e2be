// npm's install-script approvals (package.json allowScripts) and setup's check that every native
// addon was actually compiled: a stricter npm skips unapproved scripts silently.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { NATIVE_ADDONS, unbuiltAddons } from '@scripts/built-addons.mjs';

const pkg = JSON.parse(readFileSync(new URL('../../../package.json', import.meta.url), 'utf8')) as {
  allowScripts?: Record<string, boolean>;
};
const dirs: string[] = [];
afterAll(() => dirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

function fakeRoot(
  packages: Record<string, { built: boolean }>,
  allowScripts: Record<string, boolean> = { 'better-sqlite3': true },
): string {
  const root = mkdtempSync(join(tmpdir(), 'built-addons-'));
  dirs.push(root);
  writeFileSync(join(root, 'package.json'), JSON.stringify({ name: 'x', allowScripts }));
  for (const [name, { built }] of Object.entries(packages)) {
    const addon = NATIVE_ADDONS.find((entry) => entry.name === name);
    if (!addon) throw new Error(name);
    mkdirSync(join(root, 'node_modules', name, addon.binary, '..'), { recursive: true });
    writeFileSync(join(root, 'node_modules', name, 'package.json'), '{}');
    if (built) writeFileSync(join(root, 'node_modules', name, addon.binary), 'binary');
  }
  return root;
}

describe('install scripts', () => {
  it('approves the scripts that must run and denies the one the app does not use', () => {
    expect(pkg.allowScripts).toEqual({ 'better-sqlite3': true, keytar: true, libpq: true, esbuild: true, 'electron-winstaller': false });
    for (const { name } of NATIVE_ADDONS) expect(pkg.allowScripts?.[name], name).toBe(true);
  });

  it('passes when every installed addon was compiled, optional ones left out or not', () => {
    expect(unbuiltAddons(fakeRoot({ 'better-sqlite3': { built: true } }))).toEqual([]);
    expect(unbuiltAddons(fakeRoot({ 'better-sqlite3': { built: true }, keytar: { built: true }, libpq: { built: true } }))).toEqual([]);
  });

  it('names an addon whose install script was skipped, and whether allowScripts approves it', () => {
    expect(unbuiltAddons(fakeRoot({ 'better-sqlite3': { built: false } }, {}))).toEqual([
      'better-sqlite3 is installed but its native addon (build/Release/better_sqlite3.node) was not built: its install script did not run or failed (NOT approved in package.json allowScripts; run `npm rebuild better-sqlite3` and read its output)',
    ]);
    const problems = unbuiltAddons(fakeRoot({ 'better-sqlite3': { built: true }, keytar: { built: false } }, { keytar: true }));
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^keytar is installed but its native addon .* \(approved in allowScripts; run `npm rebuild keytar`/);
  });

  it('names better-sqlite3 when it is not installed at all: the app cannot do without it', () => {
    expect(unbuiltAddons(fakeRoot({}))).toEqual(['better-sqlite3 is not installed (run npm install and read its output)']);
  });

  it('is what npm run setup checks right after npm, failing the setup', () => {
    const setup = readFileSync(new URL('../../../scripts/setup.mjs', import.meta.url), 'utf8');
    const afterInstall = setup.slice(setup.indexOf('if (install.status !== 0)'));
    expect(afterInstall.indexOf('unbuiltAddons(root)')).toBeGreaterThan(0);
    expect(afterInstall.slice(0, afterInstall.indexOf('keychainSetupNotice'))).toMatch(/process\.exit\(1\)/);
  });
});
