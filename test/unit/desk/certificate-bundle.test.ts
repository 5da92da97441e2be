// The bulk export's ZIP written as certificates arrive (certificate-bundle.ts): entries in the
// order named whatever the order of arrival, one per name, the bytes as given, each entry's CRC-32
// right (read from the central directory, which is what unzip tools check), dated as asked.
import { unzipSync } from 'fflate';
import { crc32 } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { certificateZip } from '@desk/certificate-bundle';

/** name → { crc, size, dosDate } from a ZIP's central directory. */
function centralDirectory(zip: Uint8Array): Map<string, { crc: number; size: number; dosDate: number }> {
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength);
  const end = zip.byteLength - 22;
  expect(view.getUint32(end, true)).toBe(0x06054b50);
  const entries = new Map<string, { crc: number; size: number; dosDate: number }>();
  let at = view.getUint32(end + 16, true);
  for (let i = 0; i < view.getUint16(end + 10, true); i++) {
    expect(view.getUint32(at, true)).toBe(0x02014b50);
    const nameLength = view.getUint16(at + 28, true);
    const name = Buffer.from(zip.subarray(at + 46, at + 46 + nameLength)).toString('utf8');
    entries.set(name, { crc: view.getUint32(at + 16, true), size: view.getUint32(at + 24, true), dosDate: view.getUint16(at + 14, true) });
    at += 46 + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  }
  return entries;
}

describe('certificateZip', () => {
  const names = ['retirement-b.pdf', 'retirement-a.pdf', 'retirement-é.pdf', 'retirement-a.pdf', 'retirement-c.pdf'];
  const bytesOf = (name: string) => new Uint8Array(Buffer.from(`%PDF-1.7 ${name} `.repeat(name.length * 50)));

  it('keeps the order named, one entry a name, the bytes and CRC-32 of each, whatever the arrival order', () => {
    const zip = certificateZip(names, new Date(2026, 10, 26, 13, 50));
    for (const index of [4, 3, 2, 0, 1]) zip.add(index, bytesOf(names[index]!));
    const bytes = zip.finish();

    const unique = ['retirement-b.pdf', 'retirement-a.pdf', 'retirement-é.pdf', 'retirement-c.pdf'];
    const entries = unzipSync(bytes);
    expect(Object.keys(entries)).toEqual(unique);
    for (const name of unique) expect(Buffer.from(entries[name]!).equals(bytesOf(name))).toBe(true);
    const central = centralDirectory(bytes);
    expect([...central.keys()]).toEqual(unique);
    for (const name of unique) {
      expect(central.get(name)).toEqual({
        crc: crc32(bytesOf(name)),
        size: bytesOf(name).byteLength,
        dosDate: ((2026 - 1980) << 9) | (11 << 5) | 26,
      });
    }
  });

  it('refuses to finish before every file arrived, and a file it was not given', () => {
    const zip = certificateZip(names, new Date(2026, 10, 26));
    zip.add(0, bytesOf(names[0]!));
    expect(() => zip.add(9, new Uint8Array(1))).toThrow(/no file 9/);
    expect(() => zip.finish()).toThrow(/still waits for 3 of its 4 files/);
  });
});
