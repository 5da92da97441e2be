// Line layout for text that mixes scripts. pdfkit wraps text in one font at a time and misplaces
// spaces in right-to-left runs, so the certificate measures words itself, gives each run of a word
// the first font that can set it, wraps greedily, orders right-to-left words within each line, and
// draws each run of same-font left-to-right text (spaces included, so they are real characters of
// the text layer) at its own position with wrapping off (so pdfkit never adds a page).
import type { FontCatalogue, FontWeight } from './fonts';

export interface TextStyle {
  weight: FontWeight;
  size: number;
  color: string;
  /** Extra space after each character, for letter-spaced capitals. */
  characterSpacing?: number;
  /** Line height as a multiple of the size. */
  leading?: number;
}

interface Piece {
  text: string;
  font: string;
  width: number;
}

interface Token {
  pieces: Piece[];
  width: number;
  isSpace: boolean;
  rightToLeft: boolean;
  /** Punctuation or symbols only: takes the direction of the words around it. */
  isNeutral: boolean;
}

export interface Line {
  tokens: Token[];
  width: number;
}

export interface LaidOutText {
  lines: Line[];
  style: TextStyle;
  height: number;
}

// Chinese and Japanese may break between any two characters; Korean separates words with spaces
// and is wrapped like Latin.
const IDEOGRAPHIC = '\\p{Script=Han}\\p{Script=Hiragana}\\p{Script=Katakana}\\u3000-\\u303F\\uFF00-\\uFFEF';
// Spaces, then single ideographic characters, then other words.
const TOKEN = new RegExp(`[^\\S\\n]+|[${IDEOGRAPHIC}]|[^\\s${IDEOGRAPHIC}]+`, 'gu');
const ELLIPSIS = '…';
const DEFAULT_LEADING = 1.3;

export class TextSetter {
  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly fonts: FontCatalogue,
  ) {}

  /** Wraps text to maxWidth; past maxLines the last line ends in an ellipsis. Newlines start new lines. */
  layout(text: string, style: TextStyle, maxWidth: number, maxLines = Infinity): LaidOutText {
    const lines: Line[] = [];
    for (const paragraph of text.normalize('NFC').split(/\r?\n/)) {
      const tokens = (paragraph.match(TOKEN) ?? []).flatMap((word) => this.fitWord(word, style, maxWidth));
      this.wrap(tokens, maxWidth, lines);
    }
    if (lines.length > maxLines) {
      lines.length = maxLines;
      lines[maxLines - 1] = this.withEllipsis(lines[maxLines - 1]!, style, maxWidth);
    }
    return { lines, style, height: lines.length * lineHeight(style) };
  }

  /** Draws laid-out text with its first line's top at y; returns the y below the last line. */
  draw(text: LaidOutText, x: number, y: number, width: number, align: 'left' | 'center' = 'center'): number {
    const { style } = text;
    const step = lineHeight(style);
    // Baseline a little below the top so ascenders of every shipped font stay inside the line box.
    let baseline = y + style.size * 0.98;
    for (const line of text.lines) {
      let cursor = align === 'center' ? x + (width - line.width) / 2 : x;
      // Consecutive left-to-right pieces in one font, spaces included, are drawn as one run, so the
      // PDF's text holds real space characters ("This certifies that", not three separate words)
      // and there are fewer text operations. Right-to-left pieces are drawn alone, each at its place;
      // a space beside them is still drawn, as its own run.
      let run: { text: string; font: string; x: number; open: boolean } | undefined;
      for (const token of visualOrder(line.tokens)) {
        for (const piece of token.pieces) {
          const open = !token.rightToLeft;
          if (run?.open && open && run.font === piece.font) run.text += piece.text;
          else {
            if (run) this.drawRun(run, baseline, style);
            run = { text: piece.text, font: piece.font, x: cursor, open };
          }
          cursor += piece.width;
        }
      }
      if (run) this.drawRun(run, baseline, style);
      baseline += step;
    }
    return y + text.lines.length * step;
  }

  private drawRun(run: { text: string; font: string; x: number }, baseline: number, style: TextStyle): void {
    this.doc
      .font(run.font)
      .fontSize(style.size)
      .fillColor(style.color)
      .text(run.text, run.x, baseline, {
        lineBreak: false,
        baseline: 'alphabetic',
        characterSpacing: style.characterSpacing ?? 0,
      });
  }

  /** The left edge and width of each drawn line, e.g. to lay a link over it. */
  lineBoxes(text: LaidOutText, x: number, y: number, width: number, align: 'left' | 'center' = 'center') {
    const step = lineHeight(text.style);
    return text.lines.map((line, index) => ({
      x: align === 'center' ? x + (width - line.width) / 2 : x,
      y: y + index * step,
      width: line.width,
      height: step,
    }));
  }

  private wrap(tokens: Token[], maxWidth: number, into: Line[]): void {
    let line: Line = { tokens: [], width: 0 };
    for (const token of tokens) {
      if (token.isSpace && line.tokens.length === 0) continue;
      if (!token.isSpace && line.width + token.width > maxWidth && line.tokens.length > 0) {
        into.push(trimEnd(line));
        line = { tokens: [], width: 0 };
      }
      line.tokens.push(token);
      line.width += token.width;
    }
    into.push(trimEnd(line));
  }

  /** A word wider than the line is cut into pieces that fit (long ids, URLs, names without spaces). */
  private fitWord(word: string, style: TextStyle, maxWidth: number): Token[] {
    const token = this.token(word, style);
    if (token.isSpace || token.width <= maxWidth) return [token];
    const parts: Token[] = [];
    let chunk = '';
    for (const char of word) {
      const next = this.token(chunk + char, style);
      if (chunk && next.width > maxWidth) {
        parts.push(this.token(chunk, style));
        chunk = char;
      } else {
        chunk += char;
      }
    }
    if (chunk) parts.push(this.token(chunk, style));
    return parts;
  }

  private token(text: string, style: TextStyle): Token {
    const isSpace = /^\s+$/u.test(text);
    const runs = isSpace ? [{ text, font: this.fonts.primaryFont(style.weight), rightToLeft: false }] : this.fonts.runs(text, style.weight);
    const pieces = runs.map((run) => ({ text: run.text, font: run.font, width: this.measure(run.text, run.font, style) }));
    return {
      pieces,
      width: pieces.reduce((sum, piece) => sum + piece.width, 0),
      isSpace,
      rightToLeft: !isSpace && runs.every((run) => run.rightToLeft),
      isNeutral: isSpace || !/[\p{L}\p{N}]/u.test(text),
    };
  }

  private measure(text: string, font: string, style: TextStyle): number {
    const spacing = style.characterSpacing ?? 0;
    // widthOfString counts spacing between characters; the one after the last keeps runs apart.
    return this.doc.font(font).fontSize(style.size).widthOfString(text, { characterSpacing: spacing }) + spacing;
  }

  private withEllipsis(line: Line, style: TextStyle, maxWidth: number): Line {
    const ellipsis = this.token(ELLIPSIS, style);
    const tokens = [...line.tokens];
    let width = line.width;
    while (tokens.length > 0 && width + ellipsis.width > maxWidth) width -= tokens.pop()!.width;
    return trimEnd({ tokens: [...trimEnd({ tokens, width }).tokens, ellipsis], width: 0 });
  }
}

export function lineHeight(style: TextStyle): number {
  return style.size * (style.leading ?? DEFAULT_LEADING);
}

function trimEnd(line: Line): Line {
  const tokens = [...line.tokens];
  while (tokens.length > 0 && tokens[tokens.length - 1]!.isSpace) tokens.pop();
  return { tokens, width: tokens.reduce((sum, token) => sum + token.width, 0) };
}

/**
 * Left-to-right paragraph order with right-to-left stretches reversed: a stretch runs from one
 * right-to-left word to the last one reachable through spaces and punctuation. Each word's own glyphs are already
 * ordered by fontkit's shaping. Enough for names and phrases, not a full bidi algorithm.
 */
function visualOrder(tokens: Token[]): Token[] {
  const ordered: Token[] = [];
  let index = 0;
  while (index < tokens.length) {
    const token = tokens[index]!;
    if (!token.rightToLeft) {
      ordered.push(token);
      index += 1;
      continue;
    }
    let end = index;
    for (let probe = index + 1; probe < tokens.length; probe += 1) {
      const candidate = tokens[probe]!;
      if (candidate.rightToLeft) end = probe;
      else if (!candidate.isNeutral) break;
    }
    ordered.push(...tokens.slice(index, end + 1).reverse());
    index = end + 1;
  }
  return ordered;
}
