// Several retirement certificates as one file, the user's choice: one PDF with one retirement a
// page (the registry's own pages copied as they are, with pdf-lib: nothing re-rendered that could
// drift from the registry's document), or a ZIP of the separate PDFs, stored (PDFs are compressed
// already). The ZIP is fflate's streaming writer, fed as each certificate arrives while the others
// are still rendering: each file's CRC-32 is zlib's (native, about 10 µs a certificate) handed to
// fflate as its documented `ZipInputFile` allows, so what is left when the last certificate arrives
// is the central directory and one copy of the bytes, not a pass over all of them.
import { Zip, type ZipInputFile } from 'fflate';
import { crc32 } from 'node:zlib';
import { availableParallelism } from 'node:os';
import { mapConcurrently } from './map-concurrently';

export type BundleFormat = 'pdf' | 'zip';

export interface CertificateFile {
  /** `retirement-<id>.pdf`: the entry's name in a ZIP. */
  baseName: string;
  bytes: Uint8Array;
}

/** The bundle's name: `retirement-certificates-<count>-<today>`. */
export function bundleName(count: number, today: string): string {
  return `retirement-certificates-${count}-${today}`;
}

/** One PDF holding every certificate, a page each, in the order given. */
export async function combinedPdf(files: readonly CertificateFile[]): Promise<Uint8Array> {
  // Loaded on first use: evaluating pdf-lib took about 0.3 s of every desk start (CPU profile),
  // and most sessions never combine certificates.
  const { PDFDocument } = await import('pdf-lib');
  const combined = await PDFDocument.create();
  combined.setTitle(`Retirement certificates (${files.length})`);
  combined.setCreator('Registry Desk');
  for (const file of files) {
    const source = await PDFDocument.load(file.bytes);
    for (const page of await combined.copyPages(source, source.getPageIndices())) combined.addPage(page);
  }
  return combined.save();
}

export interface CertificateZip {
  /** The bytes of the `index`th name, in any order of arrival. */
  add(index: number, bytes: Uint8Array): void;
  /** The ZIP, once every name has its bytes. */
  finish(): Uint8Array;
}

/**
 * A stored ZIP of the files `names` (in that order), written as their bytes arrive: a name given
 * twice keeps its first place and one entry, with the bytes that arrive first for it (a
 * certificate's name is its retirement's, the same document each time). `modified` dates the entries.
 */
export function certificateZip(names: readonly string[], modified: Date): CertificateZip {
  const chunks: Uint8Array[] = [];
  let size = 0;
  let ended = false;
  let failure: Error | null = null;
  const zip = new Zip((error, chunk, final) => {
    if (error) failure = error;
    else {
      chunks.push(chunk);
      size += chunk.byteLength;
      ended = final;
    }
  });
  const entries = new Map<string, { file: ZipInputFile; filled: boolean }>();
  for (const filename of names) {
    if (entries.has(filename)) continue;
    const file: ZipInputFile = { filename, size: 0, crc: 0, compression: 0, mtime: modified };
    zip.add(file);
    entries.set(filename, { file, filled: false });
  }
  let missing = entries.size;
  const check = () => {
    if (failure) throw failure;
  };
  check();
  return {
    add(index, bytes) {
      const entry = entries.get(names[index]!);
      if (!entry) throw new Error(`no file ${index} in this ZIP`);
      if (entry.filled) return;
      entry.filled = true;
      missing -= 1;
      // fflate takes bytes over an ArrayBuffer (a certificate's always are: transferred from its worker).
      const data =
        bytes.buffer instanceof ArrayBuffer ? new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength) : Uint8Array.from(bytes);
      entry.file.size = data.byteLength;
      entry.file.crc = crc32(data);
      entry.file.ondata!(null, data, true);
      check();
    },
    finish() {
      if (missing > 0) throw new Error(`the ZIP still waits for ${missing} of its ${entries.size} files`);
      zip.end();
      check();
      if (!ended) throw new Error('the ZIP did not end');
      // One copy into memory that is not zeroed first (the chunks fill all of it).
      return Buffer.concat(chunks, size);
    },
  };
}

/**
 * Certificates of a bulk export fetched at once: four per core. The embedded registry's pool
 * keeps three in each worker (one rendering, two in its inbox), and the fourth is on its way to
 * it (through HTTP for a remote registry), so a worker does not wait for this thread. With fewer
 * in flight a worker was left with nothing to do after one certificate in seven (two per core),
 * or one in twenty (three per core, two in each worker), counted over a 500-certificate export.
 */
const CERTIFICATE_FETCHES = 4 * availableParallelism();

/**
 * The certificates of `ids` as one file of `format`, fetched by `fetchOne` a few at a time (each a
 * registry call, or for the embedded registry a render in its worker pool, one per core) and kept
 * in the order asked. A ZIP takes each certificate as it arrives, while the others render (its
 * entries named by `nameOf`); a combined PDF is made when all arrived.
 */
export async function certificateBundle(
  ids: readonly string[],
  format: BundleFormat,
  now: Date,
  fetchOne: (id: string) => Promise<CertificateFile>,
  nameOf: (id: string) => string,
): Promise<{ baseName: string; bytes: Uint8Array }> {
  const baseName = bundleName(ids.length, now.toISOString().slice(0, 10));
  if (format === 'pdf') {
    const files = await mapConcurrently(ids, CERTIFICATE_FETCHES, fetchOne);
    return { baseName, bytes: await combinedPdf(files) };
  }
  const zip = certificateZip(ids.map(nameOf), now);
  await mapConcurrently(ids, CERTIFICATE_FETCHES, async (id, index) => {
    zip.add(index, (await fetchOne(id)).bytes);
  });
  return { baseName, bytes: zip.finish() };
}
