// The real compile of scripts/electron-native.mjs's copies, for this Node (Electron's headers cannot
// be downloaded here; the same @electron/rebuild call builds them against this Node's instead). The
// choice of builds and the copy/record/skip logic are tested in electron-native.test.ts.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { chooseNativeModules } from '@platform/db/native-modules';
import { openSqlite } from '@platform/db/open';
import { loadKeytarFrom } from '@desk/secrets/keytar-loader';
import { buildNativeCopies, currentNode } from '@scripts/electron-native.mjs';

const REPO_ROOT = resolve(fileURLToPath(new URL('../../..', import.meta.url)));
const temp = mkdtempSync(join(tmpdir(), 'electron-native-build-'));
afterAll(() => rmSync(temp, { recursive: true, force: true }));

// Compiling better-sqlite3 took about 95 s of a core at its own -O3 (SQLite's amalgamation is most
// of it). What is tested here is the pipeline (the copies, @electron/rebuild's call, the record, the
// chooser loading them), which the optimizer has no part in: the compile runs at -O0 (node-gyp puts
// CFLAGS and CXXFLAGS from the environment after the addon's own flags; rebuildOptions passes the
// environment on), a fraction of the work. It runs with REGISTRY_DESK_NATIVE_BUILD_TEST=1, which
// `npm run test:scale` and .ci/run set.
describe.runIf(process.env.REGISTRY_DESK_NATIVE_BUILD_TEST === '1')('the real build, for this Node', () => {
  const app = join(temp, 'app');
  const dest = join(app, '.electron-native');
  const ownBinaries = ['better-sqlite3/build/Release/better_sqlite3.node', 'keytar/build/Release/keytar.node'].map((file) =>
    join(REPO_ROOT, 'node_modules', file),
  );
  const hashes = () => ownBinaries.map((file) => createHash('sha256').update(readFileSync(file)).digest('hex'));
  let before: string[];
  let result: Awaited<ReturnType<typeof buildNativeCopies>>;

  beforeAll(async () => {
    // The copies' folder sits in an app whose own node_modules hold a keytar that cannot build: had
    // the module search left the copies' folder (as it does by default), the build would fail.
    mkdirSync(join(app, 'node_modules/keytar'), { recursive: true });
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'app', dependencies: { keytar: '7.9.0' } }));
    writeFileSync(join(app, 'node_modules/keytar/package.json'), JSON.stringify({ name: 'keytar', version: '7.9.0', dependencies: {} }));
    writeFileSync(join(app, 'node_modules/keytar/binding.gyp'), 'this is not a gyp file');
    before = hashes();
    const saved = { CFLAGS: process.env.CFLAGS, CXXFLAGS: process.env.CXXFLAGS };
    process.env.CFLAGS = '-O0';
    process.env.CXXFLAGS = '-O0';
    try {
      result = await buildNativeCopies({ root: REPO_ROOT, target: currentNode(), dest });
    } finally {
      for (const [name, value] of Object.entries(saved)) {
        if (value === undefined) delete process.env[name];
        else process.env[name] = value;
      }
    }
  }, 600_000);

  it('builds the copies and leaves node_modules (and the app around them) alone', () => {
    expect(result).toMatchObject({ built: true, record: { target: { runtime: 'node', version: process.versions.node } } });
    expect(hashes()).toEqual(before);
    expect(existsSync(join(app, 'node_modules/keytar/build'))).toBe(false);
  });

  it('opens a real SQLite database and loads keytar through the chooser, from the copies', async () => {
    const native = chooseNativeModules({ target: { runtime: 'node', version: process.versions.node }, nativeDir: dest });
    expect(native).toMatchObject({ source: 'copies', keytarDir: join(dest, 'node_modules/keytar') });
    const { db } = openSqlite<unknown>(join(temp, 'real.sqlite'), {
      migrations: [{ version: 1, name: 'one', up: (raw) => raw.exec('CREATE TABLE t (x TEXT)') }],
      native,
    });
    db.raw.prepare('INSERT INTO t (x) VALUES (?)').run('from the copy');
    expect(db.raw.prepare('SELECT x, sqlite_version() AS v FROM t').get()).toMatchObject({ x: 'from the copy' });
    expect(db.raw.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();

    const keytar = await loadKeytarFrom(native);
    expect([typeof keytar.getPassword, typeof keytar.setPassword, typeof keytar.deletePassword]).toEqual([
      'function',
      'function',
      'function',
    ]);
    const loaded = Object.keys(createRequire(import.meta.url).cache).filter((file) => file.endsWith('.node'));
    expect(loaded).toEqual(
      expect.arrayContaining([native.betterSqlite3Binding, join(dest, 'node_modules/keytar/build/Release/keytar.node')]),
    );
  });

  it('a second run finds the copies up to date', async () => {
    expect(await buildNativeCopies({ root: REPO_ROOT, target: currentNode(), dest })).toMatchObject({ built: false, reason: 'up to date' });
  });
});
