// The bulk export's ZIP is written by the desk itself (stored entries, CRC-32 from zlib, possibly
// taken as each certificate arrived): checked against fflate's independent writer, byte for byte.
import { unzipSync, zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { bundleCertificates, storedZip, withChecksum } from '../../electron/core/desk/certificate-bundle';

const modified = new Date(2026, 10, 26, 10, 31, 7);
const pdf = (seed: number, length: number) => {
  const bytes = new Uint8Array(length).map((_, i) => (i * 31 + seed) & 0xff);
  bytes.set([37, 80, 68, 70, 45]); // %PDF-
  return bytes;
};
const files = [
  { baseName: 'retirement-b.pdf', bytes: pdf(1, 70_001) },
  { baseName: 'retirement-ä.pdf', bytes: pdf(2, 5) },
  { baseName: 'retirement-a.pdf', bytes: pdf(3, 41_000) },
];

describe('the certificates ZIP', () => {
  it('is the ZIP fflate writes for the same stored files, whether or not the checksums came first', async () => {
    const fflate = zipSync(Object.fromEntries(files.map((f) => [f.baseName, [f.bytes, { level: 0, mtime: modified }]])));
    expect(Buffer.from(storedZip(files, modified)).equals(Buffer.from(fflate))).toBe(true);
    const bundle = await bundleCertificates(files.map(withChecksum), 'zip', modified);
    expect(bundle.baseName).toBe(`retirement-certificates-3-${modified.toISOString().slice(0, 10)}`);
    expect(Buffer.from(bundle.bytes).equals(Buffer.from(fflate))).toBe(true);
    const read = unzipSync(bundle.bytes);
    expect(Object.keys(read)).toEqual(files.map((f) => f.baseName));
    for (const file of files) expect(Buffer.from(read[file.baseName]!).equals(Buffer.from(file.bytes))).toBe(true);
  });

  it('keeps one entry per name, in its first place; an empty one is a valid ZIP', () => {
    const twice = [...files, { baseName: 'retirement-b.pdf', bytes: pdf(9, 10) }];
    const read = unzipSync(storedZip(twice, modified));
    expect(Object.keys(read)).toEqual(files.map((f) => f.baseName));
    expect(Buffer.from(read['retirement-b.pdf']!).equals(Buffer.from(pdf(9, 10)))).toBe(true);
    expect(Object.keys(unzipSync(storedZip([], modified)))).toEqual([]);
  });
});
