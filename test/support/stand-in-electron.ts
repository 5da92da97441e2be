// A stand-in for Electron's binary folder (electron-builder's `electronDist`) on a machine where the
// real one cannot be downloaded: the files electron-builder copies and renames, and an `electron`
// executable that carries Electron's fuse wire (the sentinel @electron/fuses looks for, the wire
// version, its length and one byte per fuse), set as a stock Electron ships it, so flipping the
// fuses and reading them back work on it exactly as on the real binary. It cannot run an app.
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** @electron/fuses' sentinel (node_modules/@electron/fuses/dist/constants.js). */
export const FUSE_SENTINEL = 'dL7pKGdnNz796PbbjQWNKmHXBZaB9tsX';
/** Electron's defaults, by FuseV1Options index: RunAsNode on, cookie encryption off, NODE_OPTIONS on, … */
export const STOCK_FUSES = '101100011';

export function writeStandInElectronDist(dir: string, version: string): string {
  mkdirSync(join(dir, 'resources'), { recursive: true });
  const wire = Buffer.concat([Buffer.from(FUSE_SENTINEL), Buffer.from([1, STOCK_FUSES.length]), Buffer.from(STOCK_FUSES)]);
  const script = Buffer.from(`#!/bin/sh\necho "stand-in for Electron ${version}: it cannot run an app" >&2\nexit 1\n# `);
  writeFileSync(join(dir, 'electron'), Buffer.concat([script, wire, Buffer.from('\n')]));
  chmodSync(join(dir, 'electron'), 0o755);
  writeFileSync(join(dir, 'chrome-sandbox'), 'stand-in\n');
  writeFileSync(join(dir, 'version'), version);
  writeFileSync(join(dir, 'LICENSE'), 'stand-in\n');
  writeFileSync(join(dir, 'LICENSES.chromium.html'), '<p>stand-in</p>\n');
  return dir;
}
