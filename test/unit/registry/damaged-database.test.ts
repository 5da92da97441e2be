// Damaged databases (issue 11, item 4): real registry files damaged for real (random bytes over a
// table's page, a truncated file, a zero-length file beside demo credentials) are refused at start
// with one sentence naming the file and the way back; check, backup and restore work on real files.
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, rmSync, statSync, truncateSync, writeFileSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ManualClock } from '@platform/clock';
import { backupRegistry, checkRegistryFile, DamagedDatabaseError, restoreRegistry } from '@registry/maintenance';
import { openRegistry, REGISTRY_DB_FILE } from '@registry/open';
import { buildFixture } from '@test/support/fixture';
import { makeDataDir } from '@test/support/registry';

const cleanups: (() => void)[] = [];
afterEach(() => cleanups.splice(0).forEach((c) => c()));

function registryFolder(): { dir: string; file: string; projectsPage: number; pageSize: number } {
  const data = makeDataDir();
  cleanups.push(data.remove);
  const registry = openRegistry({ dataDir: data.dir, clock: new ManualClock(Date.parse('2024-01-01T00:00:00Z')) });
  buildFixture(registry);
  const projectsPage = (registry.db.raw.prepare("SELECT rootpage FROM sqlite_schema WHERE name = 'projects'").get() as { rootpage: number })
    .rootpage;
  const pageSize = registry.db.raw.pragma('page_size', { simple: true }) as number;
  registry.close(); // the last connection checkpoints the WAL into the file
  return { dir: data.dir, file: join(data.dir, REGISTRY_DB_FILE), projectsPage, pageSize };
}

function expectRefused(dir: string, file: string, detail: RegExp) {
  let error: unknown;
  try {
    openRegistry({ dataDir: dir }).close();
  } catch (e) {
    error = e;
  }
  expect(error).toBeInstanceOf(DamagedDatabaseError);
  const message = (error as Error).message;
  expect(message).toContain(file);
  expect(message).toMatch(detail);
  expect(message).toContain(`npm run admin -- restore <backup file> --data ${dir}`);
  expect(message.split(/\.\s/)).toHaveLength(1); // one sentence
}

describe('damaged registry files', () => {
  it('refuses random bytes written over a table page at start', () => {
    const { dir, file, projectsPage, pageSize } = registryFolder();
    const fd = openSync(file, 'r+');
    writeSync(fd, randomBytes(pageSize), 0, pageSize, (projectsPage - 1) * pageSize);
    closeSync(fd);
    expectRefused(dir, file, /damaged \(/);
    expect(checkRegistryFile(dir).ok).toBe(false);
  });

  it('refuses a truncated file', () => {
    const { dir, file } = registryFolder();
    truncateSync(file, Math.floor(statSync(file).size / 2));
    expectRefused(dir, file, /damaged/);
    const report = checkRegistryFile(dir);
    expect(report).toMatchObject({ file, ok: false });
    expect(report.problems.length).toBeGreaterThan(0);
  });

  it('refuses a zero-length or deleted file in a folder that has held a registry, and starts one in a new folder', () => {
    const { dir, file } = registryFolder();
    writeFileSync(join(dir, 'demo-credentials.json'), '{}');
    truncateSync(file, 0);
    expectRefused(dir, file, /empty, but demo-credentials\.json/);
    expect(statSync(file).size).toBe(0); // nothing was written to it
    // a deleted file is refused the same way (it would otherwise start a new, empty registry)
    rmSync(file);
    writeFileSync(join(dir, 'settings.json'), '{}');
    expectRefused(dir, file, /missing, but demo-credentials\.json/);
    expect(existsSync(file)).toBe(false);

    const fresh = makeDataDir();
    cleanups.push(fresh.remove);
    writeFileSync(join(fresh.dir, REGISTRY_DB_FILE), '');
    const registry = openRegistry({ dataDir: fresh.dir });
    expect(registry.migration.from).toBe(0);
    registry.close();
  });
});

describe('check, backup and restore', () => {
  it('checks a sound file, backs it up online and restores it over a damaged one', async () => {
    const { dir, file, projectsPage, pageSize } = registryFolder();
    expect(checkRegistryFile(dir)).toEqual({ file, ok: true, problems: [] });

    // online: the registry stays open (and written to) while the backup is made
    const live = openRegistry({ dataDir: dir });
    const projects = (live.db.raw.prepare('SELECT count(*) AS n FROM projects').get() as { n: number }).n;
    const backupFile = join(dir, 'backup-1.sqlite');
    const made = await backupRegistry(dir, backupFile);
    expect(made).toMatchObject({ file, backup: backupFile });
    await expect(backupRegistry(dir, backupFile)).rejects.toThrow(/already exists/);
    live.close();

    const fd = openSync(file, 'r+');
    writeSync(fd, randomBytes(pageSize), 0, pageSize, (projectsPage - 1) * pageSize);
    closeSync(fd);
    expect(() => openRegistry({ dataDir: dir })).toThrow(DamagedDatabaseError);

    const restored = await restoreRegistry(dir, backupFile, () => Date.parse('2024-02-01T00:00:00Z'));
    expect(restored.replacedFileKeptAs).toBe(`${file}.replaced-2024-02-01T00-00-00-000Z`);
    expect(existsSync(restored.replacedFileKeptAs!)).toBe(true);
    const back = openRegistry({ dataDir: dir });
    expect((back.db.raw.prepare('SELECT count(*) AS n FROM projects').get() as { n: number }).n).toBe(projects);
    back.close();
    expect(checkRegistryFile(dir).ok).toBe(true);
  });

  it('refuses to restore a damaged backup and changes nothing', async () => {
    const { dir, file } = registryFolder();
    const broken = join(dir, 'broken.sqlite');
    writeFileSync(broken, randomBytes(8192));
    const before = statSync(file).size;
    await expect(restoreRegistry(dir, broken)).rejects.toThrow(/damaged.*nothing was changed/);
    expect(statSync(file).size).toBe(before);
    expect(checkRegistryFile(dir).ok).toBe(true);
  });
});
