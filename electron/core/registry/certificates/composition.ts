// Where everything goes on the page. The upper part flows (its texts can be long); the lower part
// (seal, verify link, small print) has a fixed place. The flow is tried at shrinking type scales
// until it fits its area, and every long field has a line cap, so the certificate is always one page.
import { drawFrame, drawRule, drawSeal, type Box } from './ornaments';
import { PALETTE } from './palette';
import { lineHeight, type LaidOutText, type TextSetter, type TextStyle } from './text-layout';
import type { CertificateInput } from './types';
import { amountText, transparencyText, WORDS, type RetirementMoment } from './wording';

const MARGIN_X = 78;
const FLOW_TOP = 70;
/** Where the fixed lower part starts; the flow must end above it. */
const FLOW_BOTTOM = 628;
const SCALES = [1, 0.93, 0.86, 0.79, 0.72, 0.65, 0.58];
/**
 * Letter-spacing of the capitals, in ems. Text extractors (pdftotext, screen readers, search) end a
 * word where two glyphs stand more than 0.1 em apart: at 0.15 em a heading read "R E T I R I N G".
 * Below that, the heading stays one word for them and still looks spaced.
 */
const LETTER_SPACING_EM = 0.075;
/** Extra space a gap may grow by when the content is short, so the page never looks crammed at the top. */
const MAX_GAP_GROWTH = 16;

type FlowItem =
  | { kind: 'text'; text: LaidOutText; gap: number }
  | { kind: 'rule'; gap: number; height: number }
  | { kind: 'pairs'; gap: number; rows: Array<[Labelled, Labelled | undefined]>; rowGap: number };

interface Labelled {
  label: LaidOutText;
  value: LaidOutText;
}

export function composeCertificate(doc: PDFKit.PDFDocument, setter: TextSetter, input: CertificateInput, moment: RetirementMoment): void {
  const page: Box = { x: 0, y: 0, width: doc.page.width, height: doc.page.height };
  const width = page.width - 2 * MARGIN_X;
  drawFrame(doc, page);

  // Prefer smaller type over cutting text; only when even the smallest scale is too small are the
  // long fields capped (with an ellipsis).
  const available = FLOW_BOTTOM - FLOW_TOP;
  let flow: FlowItem[] | undefined;
  for (const scale of SCALES) {
    const candidate = flowItems(setter, input, moment, width, scale, false);
    if (flowHeight(candidate) <= available) {
      flow = candidate;
      break;
    }
  }
  flow ??= flowItems(setter, input, moment, width, SCALES[SCALES.length - 1]!, true);
  const gaps = flow.filter((item) => item.gap > 0).length;
  const growth = gaps > 0 ? Math.min(MAX_GAP_GROWTH, Math.max(0, (FLOW_BOTTOM - FLOW_TOP - flowHeight(flow)) / gaps)) : 0;
  drawFlow(doc, setter, flow, MARGIN_X, FLOW_TOP, width, growth);
  drawFooter(doc, setter, input, moment, page, width);
}

function flowItems(
  setter: TextSetter,
  input: CertificateInput,
  moment: RetirementMoment,
  width: number,
  scale: number,
  capLines: boolean,
): FlowItem[] {
  const style = (size: number, weight: 'regular' | 'bold', color: string, extra: Partial<TextStyle> = {}): TextStyle => ({
    size: size * scale,
    weight,
    color,
    ...extra,
  });
  const label = style(7.5, 'bold', PALETTE.accent, { characterSpacing: letterSpacing(7.5 * scale) });
  const sentence = style(11, 'regular', PALETTE.muted);
  const text = (value: string, textStyle: TextStyle, gap: number, maxLines = 3, within = width): FlowItem => ({
    kind: 'text',
    text: setter.layout(value, textStyle, within, capLines ? maxLines : Infinity),
    gap: gap * scale,
  });
  const column = (width - 24) / 2;
  const pair = (name: string, value: string, maxLines: number, span = column): Labelled => ({
    label: setter.layout(name.toUpperCase(), label, span, 1),
    value: setter.layout(value, style(10.5, 'regular', PALETTE.text), span, capLines ? maxLines : Infinity),
  });

  const items: FlowItem[] = [
    text(input.registryName, style(12, 'bold', PALETTE.accent, { characterSpacing: letterSpacing(12 * scale) }), 0, 2),
    { kind: 'rule', gap: 10 * scale, height: 8 },
    text(WORDS.title, style(32, 'bold', PALETTE.ink, { leading: 1.15 }), 6, 2),
    text(WORDS.certifiesThat, sentence, 20),
    text(input.beneficiary, style(22, 'bold', PALETTE.text, { leading: 1.22 }), 6, 6),
    text(WORDS.hasRetired, sentence, 8),
    text(amountText(input.amountTonnes), style(36, 'bold', PALETTE.ink, { leading: 1.15 }), 4, 2),
    text(WORDS.creditsFrom, sentence, 4),
    text(input.projectName, style(15, 'bold', PALETTE.text), 6, 3),
    text(`${WORDS.projectNumber} ${input.projectNum}`, style(10.5, 'regular', PALETTE.muted), 3, 2),
    { kind: 'rule', gap: 16 * scale, height: 8 },
    text(WORDS.reason.toUpperCase(), label, 14, 1),
    text(input.reason, style(12, 'regular', PALETTE.text), 3, 4),
  ];
  const comment = input.comment.trim();
  if (comment) {
    items.push(text(WORDS.comment.toUpperCase(), label, 12, 1));
    items.push(text(`“${comment}”`, style(10.5, 'regular', PALETTE.muted), 3, 8, width * 0.9));
  }
  items.push({ kind: 'pairs', gap: 20 * scale, rowGap: 10 * scale, rows: detailRows(input, moment, pair, width) });
  return items;
}

/**
 * The labelled details. Ids are long and unbroken: the retirement id gets the whole width, and so
 * does the wallet of an on-chain retirement, which must never break mid-address. The wallet has its
 * own label: it is not an organization, and the organization (when one retired) is printed as well.
 */
function detailRows(
  input: CertificateInput,
  moment: RetirementMoment,
  pair: (name: string, value: string, maxLines: number, span?: number) => Labelled,
  width: number,
): Array<[Labelled, Labelled | undefined]> {
  const organization = input.retiringOrganization.trim();
  const wallet = input.retiringWallet?.trim();
  const retirementId: [Labelled, undefined] = [pair(WORDS.retirementId, input.retirementId, 2, width), undefined];
  if (!wallet)
    return [
      [pair(WORDS.retiringOrganization, organization, 3), pair(WORDS.retiredOn, moment.day, 1)],
      [pair(WORDS.serialization, input.serialization, 2), pair(WORDS.vintage, input.vintage, 1)],
      retirementId,
    ];
  return [
    ...(organization ? [[pair(WORDS.retiringOrganization, organization, 3), undefined] as [Labelled, undefined]] : []),
    [pair(WORDS.retiringWallet, wallet, 1, width), undefined],
    [pair(WORDS.retiredOn, moment.day, 1), pair(WORDS.vintage, input.vintage, 1)],
    [pair(WORDS.serialization, input.serialization, 2, width), undefined],
    retirementId,
  ];
}

function letterSpacing(size: number): number {
  return size * LETTER_SPACING_EM;
}

function pairHeight(cell: Labelled | undefined): number {
  return cell ? cell.label.height + 2 + cell.value.height : 0;
}

function itemHeight(item: FlowItem): number {
  switch (item.kind) {
    case 'text':
      return item.text.height;
    case 'rule':
      return item.height;
    case 'pairs':
      return item.rows.reduce(
        (sum, [left, right], index) => sum + (index > 0 ? item.rowGap : 0) + Math.max(pairHeight(left), pairHeight(right)),
        0,
      );
  }
}

function flowHeight(items: FlowItem[]): number {
  return items.reduce((sum, item) => sum + item.gap + itemHeight(item), 0);
}

function drawFlow(
  doc: PDFKit.PDFDocument,
  setter: TextSetter,
  items: FlowItem[],
  x: number,
  top: number,
  width: number,
  growth: number,
): void {
  let y = top;
  for (const item of items) {
    if (item.gap > 0) y += item.gap + growth;
    if (item.kind === 'text') {
      setter.draw(item.text, x, y, width);
    } else if (item.kind === 'rule') {
      drawRule(doc, x + width / 2, y + item.height / 2, width * 0.32);
    } else {
      const column = (width - 24) / 2;
      let rowTop = y;
      for (const [index, row] of item.rows.entries()) {
        if (index > 0) rowTop += item.rowGap;
        row.forEach((cell, columnIndex) => {
          if (!cell) return;
          const spansRow = row[1] === undefined;
          const cellX = spansRow ? x : x + columnIndex * (column + 24);
          const cellWidth = spansRow ? width : column;
          const valueTop = setter.draw(cell.label, cellX, rowTop, cellWidth) + 2;
          setter.draw(cell.value, cellX, valueTop, cellWidth);
        });
        rowTop += Math.max(pairHeight(row[0]), pairHeight(row[1]));
      }
    }
    y += itemHeight(item);
  }
}

/** The seal, the clickable verify URL and the exact timestamp, at fixed places near the bottom. */
function drawFooter(
  doc: PDFKit.PDFDocument,
  setter: TextSetter,
  input: CertificateInput,
  moment: RetirementMoment,
  page: Box,
  width: number,
): void {
  const centerX = page.width / 2;
  const sealRadius = 46;
  const sealY = FLOW_BOTTOM + 16 + sealRadius;
  drawSeal(doc, centerX, sealY, sealRadius);
  const inner = sealRadius * 1.3;
  const sealWord = setter.layout(
    WORDS.sealWord,
    { size: 7, weight: 'bold', color: PALETTE.ink, characterSpacing: letterSpacing(7) },
    inner,
    1,
  );
  const sealDay = setter.layout(moment.day, { size: 6.3, weight: 'regular', color: PALETTE.ink }, inner, 1);
  const wordTop = setter.draw(sealWord, centerX - inner / 2, sealY + sealRadius * 0.04, inner);
  setter.draw(sealDay, centerX - inner / 2, wordTop, inner);

  let y = sealY + sealRadius + 12;
  const placeholder = input.verifyUrlIsPlaceholder === true;
  const intro = setter.layout(
    placeholder ? WORDS.placeholderAt : WORDS.verifyAt,
    { size: 8.5, weight: 'regular', color: PALETTE.muted },
    width,
  );
  y = setter.draw(intro, MARGIN_X, y, width);
  const urlStyle: TextStyle = { size: 9.5, weight: 'regular', color: PALETTE.link };
  const url = setter.layout(input.verifyUrl, urlStyle, width, 2);
  for (const box of placeholder ? [] : setter.lineBoxes(url, MARGIN_X, y, width)) {
    doc.link(box.x, box.y, box.width, box.height, input.verifyUrl);
    // An underline says "this is a link" on screen and stays readable when printed.
    doc.save().lineWidth(0.4).strokeColor(PALETTE.link);
    doc
      .moveTo(box.x, box.y + urlStyle.size * 1.15)
      .lineTo(box.x + box.width, box.y + urlStyle.size * 1.15)
      .stroke();
    doc.restore();
  }
  y = setter.draw(url, MARGIN_X, y, width);
  if (input.transparency) {
    // Six lines: the proof runs to four and a bit with a short address, and it must never lose its
    // last words (how to check it); the small print below still fits on the page.
    const proof = setter.layout(transparencyText(input.transparency), { size: 6, weight: 'regular', color: PALETTE.muted }, width, 6);
    y = setter.draw(proof, MARGIN_X, y + 4, width);
  }
  const smallPrint = setter.layout(
    `${WORDS.retiredAtExactly} ${moment.timestamp}  ·  ${WORDS.retirementId} ${input.retirementId}`,
    { size: 6.5, weight: 'regular', color: PALETTE.muted },
    width,
    2,
  );
  const bottom = page.height - 44 - lineHeight(smallPrint.style) * smallPrint.lines.length;
  setter.draw(smallPrint, MARGIN_X, Math.max(y + 6, bottom), width);
}
