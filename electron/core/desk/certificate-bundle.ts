// Several retirement certificates as one file, the user's choice: one PDF with one retirement a
// page (the registry's own pages copied as they are, with pdf-lib: nothing re-rendered that could
// drift from the registry's document), or a ZIP of the separate PDFs. PDFs are compressed already,
// so the ZIP stores them; each file's CRC-32 (zlib's, native) can be taken as it arrives
// (`withChecksum`), while other certificates are still rendering, so building the ZIP at the end is
// one copy of the bytes.
import { crc32 } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';

export type BundleFormat = 'pdf' | 'zip';

export interface CertificateFile {
  /** `retirement-<id>.pdf`: the entry's name in a ZIP. */
  baseName: string;
  bytes: Uint8Array;
  /** The bytes' CRC-32, when already taken (withChecksum). */
  crc32?: number;
}

/** The file with its CRC-32 taken now. */
export function withChecksum<T extends CertificateFile>(file: T): T & { crc32: number } {
  return { ...file, crc32: crc32(file.bytes) };
}

/** One file holding every certificate, in the order given. `modified` dates the ZIP's entries. */
export async function bundleCertificates(
  files: readonly CertificateFile[],
  format: BundleFormat,
  modified: Date,
): Promise<{ baseName: string; bytes: Uint8Array }> {
  const baseName = `retirement-certificates-${files.length}-${modified.toISOString().slice(0, 10)}`;
  if (format === 'zip') return { baseName, bytes: storedZip(files, modified) };
  const combined = await PDFDocument.create();
  combined.setTitle(`Retirement certificates (${files.length})`);
  combined.setCreator('Registry Desk');
  for (const file of files) {
    const source = await PDFDocument.load(file.bytes);
    for (const page of await combined.copyPages(source, source.getPageIndices())) combined.addPage(page);
  }
  return { baseName, bytes: await combined.save() };
}

const LOCAL_HEADER = 30;
const CENTRAL_HEADER = 46;
const END_RECORD = 22;
/** Bit 11 of the flags: the name is UTF-8. */
const UTF8_NAME = 0x800;

/**
 * A ZIP (PKWARE APPNOTE 4.3) of `files` stored uncompressed, one entry per name (a name given twice
 * keeps its first place and its last bytes). No ZIP64: at most 65,535 entries and 4 GiB, far above
 * what the desk bundles (500 certificates, 256 MB).
 */
export function storedZip(files: readonly CertificateFile[], modified: Date): Uint8Array {
  const byName = new Map<string, CertificateFile>();
  for (const file of files) byName.set(file.baseName, file);
  const entries = [...byName].map(([name, file]) => {
    const nameBytes = Buffer.from(name, 'utf8');
    return { nameBytes, file, crc: file.crc32 ?? crc32(file.bytes), flags: nameBytes.length === name.length ? 0 : UTF8_NAME };
  });
  let dataSize = 0;
  let centralSize = 0;
  for (const { nameBytes, file } of entries) {
    dataSize += LOCAL_HEADER + nameBytes.length + file.bytes.byteLength;
    centralSize += CENTRAL_HEADER + nameBytes.length;
  }
  if (entries.length > 0xffff || dataSize + centralSize + END_RECORD > 0xffffffff) {
    throw new Error(`a ZIP of ${entries.length} files and ${dataSize} bytes needs ZIP64, which the desk does not write`);
  }
  // MS-DOS date and time, local time as ZIP tools read them (two-second precision; 1980 at the earliest).
  const year = Math.max(1980, modified.getFullYear());
  const dosTime = (modified.getHours() << 11) | (modified.getMinutes() << 5) | (modified.getSeconds() >> 1);
  const dosDate = ((year - 1980) << 9) | ((modified.getMonth() + 1) << 5) | modified.getDate();

  const out = Buffer.allocUnsafe(dataSize + centralSize + END_RECORD);
  const view = new DataView(out.buffer, out.byteOffset, out.byteLength);
  const offsets: number[] = [];
  let at = 0;
  for (const { nameBytes, file, crc, flags } of entries) {
    offsets.push(at);
    view.setUint32(at, 0x04034b50, true);
    view.setUint16(at + 4, 20, true); // version needed: 2.0
    view.setUint16(at + 6, flags, true);
    view.setUint16(at + 8, 0, true); // stored
    view.setUint16(at + 10, dosTime, true);
    view.setUint16(at + 12, dosDate, true);
    view.setUint32(at + 14, crc, true);
    view.setUint32(at + 18, file.bytes.byteLength, true);
    view.setUint32(at + 22, file.bytes.byteLength, true);
    view.setUint16(at + 26, nameBytes.length, true);
    view.setUint16(at + 28, 0, true);
    out.set(nameBytes, at + LOCAL_HEADER);
    out.set(file.bytes, at + LOCAL_HEADER + nameBytes.length);
    at += LOCAL_HEADER + nameBytes.length + file.bytes.byteLength;
  }
  const centralStart = at;
  for (const [index, { nameBytes, file, crc, flags }] of entries.entries()) {
    view.setUint32(at, 0x02014b50, true);
    view.setUint16(at + 4, 20, true); // made by: MS-DOS, 2.0
    view.setUint16(at + 6, 20, true);
    view.setUint16(at + 8, flags, true);
    view.setUint16(at + 10, 0, true);
    view.setUint16(at + 12, dosTime, true);
    view.setUint16(at + 14, dosDate, true);
    view.setUint32(at + 16, crc, true);
    view.setUint32(at + 20, file.bytes.byteLength, true);
    view.setUint32(at + 24, file.bytes.byteLength, true);
    view.setUint16(at + 28, nameBytes.length, true);
    view.setUint16(at + 30, 0, true); // extra field
    view.setUint16(at + 32, 0, true); // comment
    view.setUint16(at + 34, 0, true); // disk
    view.setUint16(at + 36, 0, true); // internal attributes
    view.setUint32(at + 38, 0, true); // external attributes
    view.setUint32(at + 42, offsets[index]!, true);
    out.set(nameBytes, at + CENTRAL_HEADER);
    at += CENTRAL_HEADER + nameBytes.length;
  }
  view.setUint32(at, 0x06054b50, true);
  view.setUint16(at + 4, 0, true);
  view.setUint16(at + 6, 0, true);
  view.setUint16(at + 8, entries.length, true);
  view.setUint16(at + 10, entries.length, true);
  view.setUint32(at + 12, at - centralStart, true);
  view.setUint32(at + 16, centralStart, true);
  view.setUint16(at + 20, 0, true);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}
