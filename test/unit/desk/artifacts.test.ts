// Files the desk produced, saved by handle: the store (names, extensions, caps, expiry) and the
// Electron shell's save (native dialog mocked as a plain object; real files in a temp folder).
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { AdjustableClock } from '@platform/clock';
import { ARTIFACT_TTL_MS, createArtifactStore, FILE_KINDS, MAX_ARTIFACTS, safeBaseName, withExtension } from '@desk/artifacts';
import { DeskFailure } from '@desk/errors';
import { saveArtifactWithDialog } from '@main/save-file';

const dir = mkdtempSync(join(tmpdir(), 'desk-artifacts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const bytes = (text: string) => new TextEncoder().encode(text);

describe('the artifact store', () => {
  it('names files itself: plain base names, the kind forcing the extension', () => {
    const store = createArtifactStore(new AdjustableClock());
    expect(store.put('pdf', 'retirement-1.pdf', bytes('%PDF-')).filename).toBe('retirement-1.pdf');
    expect(store.put('pdf', 'cert.pdf.exe', bytes('%PDF-')).filename).toBe('cert.pdf.exe.pdf');
    expect(store.put('csv', '../../.bashrc', bytes('a')).filename).toBe('bashrc.csv');
    expect(store.put('csv', 'C:\\Windows\\evil|name?.CSV', bytes('a')).filename).toBe('evil_name_.CSV');
    expect(safeBaseName('..')).toBe('download');
    expect(safeBaseName('x'.repeat(400))).toHaveLength(150);
    expect(withExtension('report', 'csv')).toBe('report.csv');
  });

  it('refuses files over the cap of their kind', () => {
    const store = createArtifactStore(new AdjustableClock());
    const big = new Uint8Array(FILE_KINDS.pdf.maxBytes + 1);
    expect(() => store.put('pdf', 'big.pdf', big)).toThrow(DeskFailure);
    expect(() => store.put('pdf', 'big.pdf', big)).toThrow(/more than the 20 MB the desk saves/);
  });

  it('forgets files after their time, beyond the newest few, and once released', () => {
    const clock = new AdjustableClock();
    const store = createArtifactStore(clock);
    const first = store.put('csv', 'a.csv', bytes('a'));
    expect(store.get(first.handle)?.bytes).toEqual(bytes('a'));
    clock.advance(ARTIFACT_TTL_MS);
    expect(store.get(first.handle)).toBeUndefined();

    const handles = Array.from({ length: MAX_ARTIFACTS + 1 }, (_, i) => store.put('csv', `f${i}.csv`, bytes(String(i))).handle);
    expect(store.get(handles[0]!)).toBeUndefined();
    expect(store.get(handles.at(-1)!)?.filename).toBe(`f${MAX_ARTIFACTS}.csv`);
    store.release(handles.at(-1)!);
    expect(store.get(handles.at(-1)!)).toBeUndefined();
  });
});

describe('saving in the Electron shell', () => {
  const dialogAnswering = (filePath: string | undefined) => {
    const asked: { defaultPath?: string; filters?: { name: string; extensions: string[] }[] }[] = [];
    return {
      asked,
      dialog: {
        showSaveDialog: (...args: unknown[]) => {
          asked.push(args.at(-1) as (typeof asked)[number]);
          return Promise.resolve(filePath === undefined ? { canceled: true, filePath: '' } : { canceled: false, filePath });
        },
      } as unknown as Parameters<typeof saveArtifactWithDialog>[0],
    };
  };

  it("offers only the file's kind, forces its extension on the chosen path, writes the desk's bytes and forgets them", async () => {
    const store = createArtifactStore(new AdjustableClock());
    const file = store.put('pdf', 'retirement-7.pdf', bytes('%PDF-1.7 desk'));
    const { dialog, asked } = dialogAnswering(join(dir, 'cert.pdf.exe'));
    const result = await saveArtifactWithDialog(dialog, undefined, '/home/u/Downloads', store, file.handle);
    expect(asked).toEqual([
      { defaultPath: '/home/u/Downloads/retirement-7.pdf', filters: [{ name: 'PDF document', extensions: ['pdf'] }] },
    ]);
    expect(result).toEqual({ saved: true, path: join(dir, 'cert.pdf.exe.pdf') });
    expect(readFileSync(join(dir, 'cert.pdf.exe.pdf'), 'utf8')).toBe('%PDF-1.7 desk');
    expect(readdirSync(dir)).not.toContain('cert.pdf.exe');
    expect(store.get(file.handle)).toBeUndefined();
  });

  it('keeps the file when the dialog is cancelled, and says when a handle is unknown', async () => {
    const store = createArtifactStore(new AdjustableClock());
    const file = store.put('csv', 'projects.csv', bytes('a,b'));
    expect(await saveArtifactWithDialog(dialogAnswering(undefined).dialog, undefined, dir, store, file.handle)).toEqual({ saved: false });
    expect(store.get(file.handle)).toBeDefined();
    await expect(saveArtifactWithDialog(dialogAnswering(join(dir, 'x.csv')).dialog, undefined, dir, store, 'B'.repeat(24))).rejects.toThrow(
      'This file is no longer available: export or download it again',
    );
  });
});
