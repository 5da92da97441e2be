// The shipped fonts and the fallback order used to give every character a glyph. Coverage is read
// with fontkit (the copy pdfkit itself depends on) straight from the font files, outside any PDF
// document, so asking "who has this glyph" never changes what a document contains.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join } from 'node:path';

export type FontWeight = 'regular' | 'bold';

/** The part of a fontkit font this module uses. */
interface FontkitFace {
  hasGlyphForCodePoint(codePoint: number): boolean;
  layout(text: unknown, ...rest: unknown[]): GlyphRun;
  createSubset(): FontSubset;
  getGlyph(id: number, codePoints?: number[]): FontkitGlyph;
  _variationProcessor?: unknown;
}

/** The part of fontkit's glyph this module uses. */
interface FontkitGlyph {
  /** The characters the glyph stands for: what pdfkit writes into the PDF's text for it. */
  codePoints: number[];
  _decode?: () => unknown;
}

/** fontkit's subset of a face, as a document embeds it; TrueType ones add each glyph with _addGlyph. */
interface FontSubset {
  font: FontkitFace;
  _addGlyph?: (gid: number) => number;
}

/** The part of fontkit's GlyphRun (a class) a layout answer is copied by. */
interface GlyphRun {
  glyphs: unknown[];
  positions: object[];
}

/**
 * Layouts kept per face (about 2 KB each), forgotten all at once when full: a certificate sets a
 * few hundred distinct words, most of them in every certificate, and a few of its own (ids, names,
 * amounts) that would otherwise pile up.
 */
const LAYOUTS_KEPT = 2_000;

interface ShippedFont {
  /** Name the font is registered under in each PDF document. */
  name: string;
  file: string;
  /** Right-to-left script: words set in it are ordered right to left within a line. */
  rightToLeft?: boolean;
}

const SERIF: ShippedFont = { name: 'Serif', file: 'DejaVuSerif.ttf' };
const SERIF_BOLD: ShippedFont = { name: 'Serif-Bold', file: 'DejaVuSerif-Bold.ttf' };
const HEBREW: ShippedFont = { name: 'Hebrew', file: 'NotoSerifHebrew-Regular.ttf', rightToLeft: true };
const HEBREW_BOLD: ShippedFont = { name: 'Hebrew-Bold', file: 'NotoSerifHebrew-Bold.ttf', rightToLeft: true };
const ARABIC: ShippedFont = { name: 'Arabic', file: 'NotoNaskhArabic-Regular.ttf', rightToLeft: true };
const ARABIC_BOLD: ShippedFont = { name: 'Arabic-Bold', file: 'NotoNaskhArabic-Bold.ttf', rightToLeft: true };
// Only one CJK weight is shipped (size); bold CJK text uses it too.
const CJK: ShippedFont = { name: 'CJK', file: 'NotoSansCJKsc-Regular-subset.otf' };

/** First font first: the primary face, then fallbacks by script. */
const FALLBACK_ORDER: Record<FontWeight, ShippedFont[]> = {
  regular: [SERIF, HEBREW, ARABIC, CJK],
  bold: [SERIF_BOLD, HEBREW_BOLD, ARABIC_BOLD, CJK],
};

const ALL_FONTS = [SERIF, SERIF_BOLD, HEBREW, HEBREW_BOLD, ARABIC, ARABIC_BOLD, CJK];

/** A stretch of text that one font can set entirely. */
export interface FontRun {
  text: string;
  font: string;
  rightToLeft: boolean;
}

// Characters every font can be asked to set without checking: spaces and invisible joiners/marks
// that shaping handles or that have no ink. Two classes: in one, the joiners' range ending right
// before the variation selectors' would read as a mark combined with its base character.
const NEUTRAL = /[\s\u200B-\u200F]|[\uFE00-\uFE0F]/u;

export class FontCatalogue {
  private readonly faces = new Map<string, FontkitFace>();
  /** What documents are given: each face with its layouts remembered across documents. */
  private readonly documentFaces = new Map<string, FontkitFace>();
  private readonly byName = new Map<string, ShippedFont>();

  constructor(readonly fontsDir: string) {
    const fontkit = loadFontkit();
    for (const font of ALL_FONTS) {
      const face = fontkit.create(readFileSync(join(fontsDir, font.file)));
      this.faces.set(font.name, face);
      this.documentFaces.set(font.name, withLayoutMemory(face));
      this.byName.set(font.name, font);
    }
  }

  /** Registers every shipped font in a document under its catalogue name (nothing is embedded until used). */
  registerAll(doc: PDFKit.PDFDocument): void {
    // pdfkit 0.20 takes an already parsed fontkit font as a font source (PDFFontFactory.open checks
    // for .layout); the type definitions only list files and buffers. Handing over the parsed faces
    // saves re-parsing every font table for every certificate, most of the time a render takes.
    for (const [name, face] of this.documentFaces) doc.registerFont(name, face as unknown as PDFKit.Mixins.PDFFontSource);
  }

  primaryFont(weight: FontWeight): string {
    return FALLBACK_ORDER[weight][0]!.name;
  }

  /**
   * Splits text into runs, each set in the first font of the weight's fallback order that has a glyph
   * for every character of the run. Text the primary font covers stays in one run.
   */
  runs(text: string, weight: FontWeight): FontRun[] {
    const order = FALLBACK_ORDER[weight];
    const whole = order.find((font) => this.covers(font.name, text));
    if (whole) return [this.run(text, whole)];
    const runs: FontRun[] = [];
    let current: { font: ShippedFont; text: string } | undefined;
    for (const char of text) {
      const keepCurrent = current && (NEUTRAL.test(char) || this.covers(current.font.name, char));
      if (current && keepCurrent) {
        current.text += char;
        continue;
      }
      // A character no shipped font has goes to the primary font, which prints its missing-glyph box.
      const font = order.find((candidate) => this.covers(candidate.name, char)) ?? order[0]!;
      if (current) runs.push(this.run(current.text, current.font));
      current = { font, text: char };
    }
    if (current) runs.push(this.run(current.text, current.font));
    return runs;
  }

  isRightToLeft(fontName: string): boolean {
    return this.byName.get(fontName)?.rightToLeft === true;
  }

  private run(text: string, font: ShippedFont): FontRun {
    return { text, font: font.name, rightToLeft: font.rightToLeft === true };
  }

  private covers(fontName: string, text: string): boolean {
    const face = this.faces.get(fontName)!;
    for (const char of text) {
      if (NEUTRAL.test(char)) continue;
      if (!face.hasGlyphForCodePoint(char.codePointAt(0)!)) return false;
    }
    return true;
  }
}

/**
 * `face` for pdfkit's documents, with its text layouts (fontkit's OpenType shaping, a third of a
 * certificate's time) and its subsets' decoded glyphs remembered across documents: a face is immutable and layout(text, features)
 * a function of its arguments, and the same labels, names and words come back in every certificate.
 * pdfkit remembers layouts only within one document, and scales the positions it is given in
 * place, so each caller gets its own copy of the positions (glyphs are fontkit's shared objects
 * already). Everything else is the face itself, through the prototype chain.
 */
function withLayoutMemory(face: FontkitFace): FontkitFace {
  const layouts = new Map<string, GlyphRun>();
  const memory = Object.create(face) as FontkitFace;
  memory.layout = function (this: FontkitFace, text: unknown, ...rest: unknown[]) {
    const [features, ...more] = rest;
    if (typeof text !== 'string' || more.some((argument) => argument !== undefined)) return face.layout.call(this, text, ...rest);
    const key = features === undefined ? `\u0000${text}` : `${JSON.stringify(features)}\u0000${text}`;
    const kept = layouts.get(key);
    if (kept) return copyRun(kept);
    const run = face.layout.call(this, text, features);
    if (layouts.size >= LAYOUTS_KEPT) layouts.clear();
    layouts.set(key, copyRun(run));
    return run;
  };
  // fontkit makes one glyph object per glyph id for the face's life, with the characters it was
  // first asked for. A subset reaches the parts of a composite glyph by id alone (the z inside ž),
  // so a glyph first reached that way had none, and pdfkit, which takes a glyph's characters for
  // the PDF's text layer, wrote none for it in every later certificate: their copied or searched
  // text lost the letter (a checkpoint root, a proof URL). The first characters asked for are kept.
  memory.getGlyph = function (this: FontkitFace, id: number, codePoints?: number[]) {
    const glyph = face.getGlyph.call(this, id, codePoints);
    if (glyph && glyph.codePoints.length === 0 && codePoints && codePoints.length > 0) glyph.codePoints = codePoints;
    return glyph;
  };
  memory.createSubset = function (this: FontkitFace) {
    const subset = face.createSubset.call(this);
    const addGlyph = subset._addGlyph;
    // A TrueType subset decodes every glyph it embeds (all its points) only to find whether it is
    // made of other glyphs, for every document: the decoded glyph is kept on fontkit's shared glyph
    // object instead (its only other reader, the outline, only reads it). Variable fonts re-encode
    // their glyphs and are left as they are (none is shipped).
    if (addGlyph && !this._variationProcessor) {
      subset._addGlyph = function (this: FontSubset, gid: number) {
        const glyph = this.font.getGlyph(gid);
        if (!Object.hasOwn(glyph, '_decode') && glyph._decode) {
          const decoded = glyph._decode();
          glyph._decode = () => decoded;
        }
        return addGlyph.call(this, gid);
      };
    }
    return subset;
  };
  return memory;
}

function copyRun(run: GlyphRun): GlyphRun {
  const copy = Object.assign(Object.create(Object.getPrototypeOf(run) as object) as GlyphRun, run);
  copy.glyphs = run.glyphs.slice();
  copy.positions = run.positions.map((position) =>
    Object.assign(Object.create(Object.getPrototypeOf(position) as object) as object, position),
  );
  return copy;
}

const catalogues = new Map<string, FontCatalogue>();

/** One catalogue per fonts folder for the life of the process: the files are read and parsed once. */
export function fontCatalogue(fontsDir: string): FontCatalogue {
  let catalogue = catalogues.get(fontsDir);
  if (!catalogue) {
    catalogue = new FontCatalogue(fontsDir);
    catalogues.set(fontsDir, catalogue);
  }
  return catalogue;
}

function loadFontkit(): { create(buffer: Buffer): FontkitFace } {
  // fontkit is pdfkit's own dependency; resolving it from pdfkit's location finds the very copy pdfkit
  // uses even when the package manager does not hoist it.
  const requireHere = createRequire(import.meta.url);
  const requireFromPdfkit = createRequire(requireHere.resolve('pdfkit'));
  return requireFromPdfkit('fontkit') as { create(buffer: Buffer): FontkitFace };
}
