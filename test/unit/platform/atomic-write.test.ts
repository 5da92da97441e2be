// The one atomic-write helper, on real files: the content and mode land exactly, a replaced file
// is a new inode (so a reader holds either the old file or the new), a failure leaves the target as
// it was with no temporary file behind, a symlink at the target is replaced rather than followed,
// and concurrent writers each leave a whole file.
import { lstatSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { writeFileAtomic, writeFileAtomicSync } from '@platform/atomic-write.mjs';

let root: string;
let dir: string;
let target: string;

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), 'atomic-write-'));
});
afterAll(() => rmSync(root, { recursive: true, force: true }));
beforeEach((context) => {
  dir = mkdtempSync(join(root, `${context.task.id}-`));
  target = join(dir, 'file.json');
});

const variants = [
  {
    name: 'writeFileAtomic',
    write: (path: string, data: unknown, options?: { mode?: number }) => writeFileAtomic(path, data as string, options),
  },
  {
    name: 'writeFileAtomicSync',
    write: async (path: string, data: unknown, options?: { mode?: number }) => writeFileAtomicSync(path, data as string, options),
  },
];

describe.each(variants)('$name', ({ write }) => {
  let umask: number;
  beforeEach(() => {
    umask = process.umask();
  });
  afterEach(() => {
    process.umask(umask);
  });

  it('writes the content, owner-only by default, and leaves only the file in the directory', async () => {
    process.umask(0o000); // a permissive umask must not widen the default
    await write(target, '{"a":1}\n');
    expect(readFileSync(target, 'utf8')).toBe('{"a":1}\n');
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['file.json']);
  });

  it('applies the mode asked for whatever the umask, also to bytes', async () => {
    process.umask(0o077); // a narrow umask must not cut bits the caller asked for
    await write(target, new Uint8Array([1, 2, 3]), { mode: 0o644 });
    expect([...readFileSync(target)]).toEqual([1, 2, 3]);
    expect(statSync(target).mode & 0o777).toBe(0o644);
  });

  it('replaces an existing file by a new one (new inode, its own mode), so a reader holds one or the other', async () => {
    writeFileSync(target, 'old content', { mode: 0o666 });
    const before = statSync(target).ino;
    await write(target, 'new content');
    expect(readFileSync(target, 'utf8')).toBe('new content');
    expect(statSync(target).ino).not.toBe(before);
    expect(statSync(target).mode & 0o777).toBe(0o600);
    expect(readdirSync(dir)).toEqual(['file.json']);
  });

  it('a failure after the temporary file exists leaves the target as it was and no temporary file', async () => {
    writeFileSync(target, 'precious');
    // Not text nor bytes: the write itself throws, after the temporary file was created.
    await expect(write(target, { not: 'writable' })).rejects.toThrow();
    expect(readFileSync(target, 'utf8')).toBe('precious');
    expect(readdirSync(dir)).toEqual(['file.json']);
  });

  it('a failing rename (the target is a directory) changes nothing and leaves no temporary file', async () => {
    const occupied = join(dir, 'occupied');
    mkdirSync(occupied);
    writeFileSync(join(occupied, 'inside'), 'kept');
    await expect(write(occupied, 'content')).rejects.toThrow();
    expect(readFileSync(join(occupied, 'inside'), 'utf8')).toBe('kept');
    expect(readdirSync(dir)).toEqual(['occupied']);
  });

  it('replaces a symlink at the target instead of writing through it', async () => {
    const elsewhere = join(dir, 'elsewhere.txt');
    writeFileSync(elsewhere, 'not to be touched');
    symlinkSync(elsewhere, target);
    await write(target, 'the new file');
    expect(lstatSync(target).isSymbolicLink()).toBe(false);
    expect(readFileSync(target, 'utf8')).toBe('the new file');
    expect(readFileSync(elsewhere, 'utf8')).toBe('not to be touched');
  });

  it('does not create a missing directory', async () => {
    await expect(write(join(dir, 'missing', 'file.json'), 'x')).rejects.toMatchObject({ code: 'ENOENT' });
    expect(readdirSync(dir)).toEqual([]);
  });
});

describe('writeFileAtomic with concurrent writers', () => {
  it('each write is whole: the file ends as exactly one of them, with no temporary file left', async () => {
    const contents = Array.from({ length: 16 }, (_, i) => `${i}:${String(i % 10).repeat(200_000)}`);
    await Promise.all(contents.map((content) => writeFileAtomic(target, content)));
    expect(contents).toContain(readFileSync(target, 'utf8'));
    expect(readdirSync(dir)).toEqual(['file.json']);
  });
});
