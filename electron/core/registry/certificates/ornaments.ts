// Vector decoration of the certificate: the frame, rules and the seal. No images: everything is
// paths, so it stays sharp when printed and adds almost nothing to the file.
import { PALETTE } from './palette';

export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A double frame (heavy outer line, fine inner line) with small diamonds at the inner corners. */
export function drawFrame(doc: PDFKit.PDFDocument, page: Box): void {
  const outer = inset(page, 22);
  const inner = inset(page, 30);
  doc.save();
  doc.lineWidth(2.5).strokeColor(PALETTE.ink).rect(outer.x, outer.y, outer.width, outer.height).stroke();
  doc.lineWidth(0.8).strokeColor(PALETTE.accent).rect(inner.x, inner.y, inner.width, inner.height).stroke();
  const innermost = inset(page, 34);
  doc.lineWidth(0.4).strokeColor(PALETTE.ink).rect(innermost.x, innermost.y, innermost.width, innermost.height).stroke();
  for (const [cx, cy] of corners(inner)) diamond(doc, cx, cy, 5, PALETTE.accent);
  doc.restore();
}

/** A centred hairline with a diamond in the middle, to separate sections. */
export function drawRule(doc: PDFKit.PDFDocument, centerX: number, y: number, halfWidth: number): void {
  doc.save();
  doc.lineWidth(0.6).strokeColor(PALETTE.accent);
  doc
    .moveTo(centerX - halfWidth, y)
    .lineTo(centerX - 8, y)
    .stroke();
  doc
    .moveTo(centerX + 8, y)
    .lineTo(centerX + halfWidth, y)
    .stroke();
  diamond(doc, centerX, y, 3.2, PALETTE.accent);
  doc.restore();
}

/**
 * A seal: a serrated rim, a ring of dots and a leaf in the middle. The caller sets the words inside
 * (they need the text setter for fonts), within sealTextArea.
 */
export function drawSeal(doc: PDFKit.PDFDocument, cx: number, cy: number, radius: number): void {
  doc.save();
  const teeth = 36;
  const points: Array<[number, number]> = [];
  for (let i = 0; i < teeth * 2; i += 1) {
    const angle = (Math.PI * i) / teeth - Math.PI / 2;
    const r = i % 2 === 0 ? radius : radius * 0.93;
    points.push([cx + r * Math.cos(angle), cy + r * Math.sin(angle)]);
  }
  doc
    .polygon(...points)
    .fillColor(PALETTE.ink)
    .fill();
  doc
    .circle(cx, cy, radius * 0.86)
    .fillColor(PALETTE.paper)
    .fill();
  doc
    .lineWidth(1)
    .strokeColor(PALETTE.ink)
    .circle(cx, cy, radius * 0.8)
    .stroke();
  doc
    .lineWidth(0.5)
    .strokeColor(PALETTE.accent)
    .circle(cx, cy, radius * 0.58)
    .stroke();
  const dots = 28;
  for (let i = 0; i < dots; i += 1) {
    const angle = (2 * Math.PI * i) / dots;
    doc
      .circle(cx + radius * 0.69 * Math.cos(angle), cy + radius * 0.69 * Math.sin(angle), radius * 0.025)
      .fillColor(PALETTE.accent)
      .fill();
  }
  drawLeaf(doc, cx, cy - radius * 0.22, radius * 0.2);
  doc.restore();
}

/** A leaf with a midrib, pointing up-right, centred on (cx, cy). */
function drawLeaf(doc: PDFKit.PDFDocument, cx: number, cy: number, size: number): void {
  doc.save();
  doc.translate(cx, cy).rotate(35);
  doc
    .moveTo(0, size)
    .bezierCurveTo(size * 0.9, size * 0.5, size * 0.9, -size * 0.5, 0, -size)
    .bezierCurveTo(-size * 0.9, -size * 0.5, -size * 0.9, size * 0.5, 0, size)
    .fillColor(PALETTE.ink)
    .fill();
  doc
    .lineWidth(size * 0.08)
    .strokeColor(PALETTE.paper)
    .moveTo(0, size * 0.85)
    .lineTo(0, -size * 0.7)
    .stroke();
  doc
    .lineWidth(size * 0.1)
    .strokeColor(PALETTE.ink)
    .moveTo(0, size)
    .lineTo(0, size * 1.35)
    .stroke();
  doc.restore();
}

function diamond(doc: PDFKit.PDFDocument, cx: number, cy: number, r: number, color: string): void {
  doc
    .polygon([cx, cy - r], [cx + r, cy], [cx, cy + r], [cx - r, cy])
    .fillColor(color)
    .fill();
}

function inset(box: Box, by: number): Box {
  return { x: box.x + by, y: box.y + by, width: box.width - 2 * by, height: box.height - 2 * by };
}

function corners(box: Box): Array<[number, number]> {
  return [
    [box.x, box.y],
    [box.x + box.width, box.y],
    [box.x, box.y + box.height],
    [box.x + box.width, box.y + box.height],
  ];
}
