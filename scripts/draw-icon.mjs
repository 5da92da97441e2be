// Draws the app icon (resources/icons/<size>x<size>.png, the sizes electron-builder wants for
// Linux, macOS and Windows) from a few shapes, with no image tool: a green rounded square holding a
// white ledger (three ruled lines) and a leaf-green seal. Run `node scripts/draw-icon.mjs` after
// changing the shapes; the PNGs are committed. Anti-aliased by sampling each pixel 4x4 times.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { crc32, deflateSync } from 'node:zlib';

export const ICON_SIZES = [16, 32, 48, 64, 128, 256, 512, 1024];
const BACKGROUND = [31, 111, 74];
const INK = [255, 255, 255];
const SEAL = [164, 222, 120];

/** Signed-distance-free tests in the unit square (0..1): is (x, y) inside a rounded rectangle? */
function inRoundedRect(x, y, left, top, right, bottom, radius) {
  if (x < left || x > right || y < top || y > bottom) return false;
  const cx = Math.min(Math.max(x, left + radius), right - radius);
  const cy = Math.min(Math.max(y, top + radius), bottom - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** The colour at (x, y) in the unit square, or undefined for transparent. */
export function colourAt(x, y) {
  if (!inRoundedRect(x, y, 0.04, 0.04, 0.96, 0.96, 0.2)) return undefined;
  if ((x - 0.7) ** 2 + (y - 0.7) ** 2 <= 0.13 ** 2) return SEAL;
  const lines = [
    [0.2, 0.24, 0.8],
    [0.2, 0.42, 0.8],
    [0.2, 0.6, 0.5],
  ];
  for (const [left, top, right] of lines) if (inRoundedRect(x, y, left, top, right, top + 0.08, 0.04)) return INK;
  return BACKGROUND;
}

/** RGBA pixels of the icon at `size`. */
export function drawIcon(size) {
  const pixels = Buffer.alloc(size * size * 4);
  const samples = 4;
  for (let py = 0; py < size; py += 1) {
    for (let px = 0; px < size; px += 1) {
      const sum = [0, 0, 0, 0];
      for (let sy = 0; sy < samples; sy += 1) {
        for (let sx = 0; sx < samples; sx += 1) {
          const colour = colourAt((px + (sx + 0.5) / samples) / size, (py + (sy + 0.5) / samples) / size);
          if (!colour) continue;
          for (let c = 0; c < 3; c += 1) sum[c] += colour[c];
          sum[3] += 1;
        }
      }
      const at = (py * size + px) * 4;
      const covered = sum[3];
      for (let c = 0; c < 3; c += 1) pixels[at + c] = covered ? Math.round(sum[c] / covered) : 0;
      pixels[at + 3] = Math.round((covered / samples ** 2) * 255);
    }
  }
  return pixels;
}

function chunk(type, data) {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A PNG file (8-bit RGBA, no filtering) of `pixels`. */
export function encodePng(size, pixels) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(size, 0);
  header.writeUInt32BE(size, 4);
  header.set([8, 6, 0, 0, 0], 8);
  const rows = Buffer.alloc(size * (size * 4 + 1));
  for (let y = 0; y < size; y += 1) pixels.copy(rows, y * (size * 4 + 1) + 1, y * size * 4, (y + 1) * size * 4);
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk('IHDR', header), chunk('IDAT', deflateSync(rows, { level: 9 })), chunk('IEND', Buffer.alloc(0))]);
}

if (process.argv[1] === import.meta.filename) {
  const dir = join(import.meta.dirname, '..', 'resources', 'icons');
  mkdirSync(dir, { recursive: true });
  for (const size of ICON_SIZES) writeFileSync(join(dir, `${size}x${size}.png`), encodePng(size, drawIcon(size)));
  console.log(`draw-icon: ${ICON_SIZES.length} sizes in ${dir}`);
}
