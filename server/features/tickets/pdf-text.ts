import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import bidiFactory from 'bidi-js';
import type { Font } from 'fontkit';

/**
 * Text of any script on a tickets PDF, Arabic included: pdfkit draws what fontkit shapes (Arabic letters joined
 * by their OpenType forms), but it lays out word by word, left to right, and knows no bidi. So each line is
 * split here by the Unicode Bidirectional Algorithm (bidi-js) into runs of one direction and one font, each
 * run is shaped in its direction, and the runs are drawn in their visual order, on one baseline.
 *
 * The fonts are IBM Plex Sans Arabic's (@fontsource/ibm-plex-sans-arabic, SIL Open Font License): its Arabic,
 * Latin and Latin Extended parts, read when the first such PDF is asked for. Its letters are whole glyphs (not
 * a dotless letter and its dots), so the PDF's text can be copied and searched as written. A character none of
 * them has falls back to Helvetica, as the English PDF draws it.
 */

export type Weight = 'regular' | 'bold';

interface Face {
  /** The name the document knows the font by. */
  name: string;
  file: Buffer;
  font: Font;
}

/** The faces of a weight, in the order a character is looked up in. */
type Faces = Record<Weight, Face[]>;

const SUBSETS = ['arabic', 'latin', 'latin-ext'] as const;
const WEIGHTS: Record<Weight, number> = { regular: 400, bold: 700 };
/** Where nothing else has the character (written as Windows-1252, '?' for what it cannot draw). */
const FALLBACK: Record<Weight, string> = { regular: 'Helvetica', bold: 'Helvetica-Bold' };
/** Helvetica's ascender and descender, per em (its AFM). */
const FALLBACK_METRICS = { ascent: 0.718, descent: -0.207 };

const nodeRequire = createRequire(import.meta.url);

let loading: Promise<Faces> | undefined;

/** The fonts, read once per process (~0.3 MB), when the first PDF that needs them is made. */
export function loadFaces(): Promise<Faces> {
  loading ??= (async () => {
    // pdfkit's own fontkit (CommonJS), not a second copy of it.
    const fontkit = nodeRequire('fontkit') as typeof import('fontkit');
    const faces: Faces = { regular: [], bold: [] };
    for (const weight of Object.keys(WEIGHTS) as Weight[]) {
      for (const subset of SUBSETS) {
        const path = nodeRequire.resolve(
          `@fontsource/ibm-plex-sans-arabic/files/ibm-plex-sans-arabic-${subset}-${WEIGHTS[weight]}-normal.woff`,
        );
        const file = sfntOfWoff(await readFile(path));
        faces[weight].push({ name: `plex-${subset}-${weight}`, file, font: fontkit.create(file) });
      }
    }
    return faces;
  })();
  loading.catch(() => {
    loading = undefined; // tried again by the next PDF
  });
  return loading;
}

/**
 * A WOFF font as the plain TrueType/OpenType file it wraps (its tables inflated once): fontkit reads a WOFF's
 * tables by inflating them again at every look-up, which made an Arabic PDF take seconds.
 */
export function sfntOfWoff(woff: Buffer): Buffer {
  if (woff.toString('latin1', 0, 4) !== 'wOFF') return woff;
  const flavor = woff.readUInt32BE(4);
  const count = woff.readUInt16BE(12);
  const tables = Array.from({ length: count }, (_, index) => {
    const at = 44 + index * 20;
    const offset = woff.readUInt32BE(at + 4);
    const compressed = woff.readUInt32BE(at + 8);
    const length = woff.readUInt32BE(at + 12);
    const raw = woff.subarray(offset, offset + compressed);
    return {
      tag: woff.readUInt32BE(at),
      checksum: woff.readUInt32BE(at + 16),
      data: compressed < length ? inflateSync(raw) : raw,
    };
  });
  const padded = (length: number) => (length + 3) & ~3;
  const headerLength = 12 + 16 * count;
  const sfnt = Buffer.alloc(headerLength + tables.reduce((sum, table) => sum + padded(table.data.length), 0));
  const power = 2 ** Math.floor(Math.log2(count));
  sfnt.writeUInt32BE(flavor, 0);
  sfnt.writeUInt16BE(count, 4);
  sfnt.writeUInt16BE(power * 16, 6);
  sfnt.writeUInt16BE(Math.log2(power), 8);
  sfnt.writeUInt16BE(count * 16 - power * 16, 10);
  let offset = headerLength;
  tables.forEach((table, index) => {
    const record = 12 + index * 16;
    sfnt.writeUInt32BE(table.tag, record);
    sfnt.writeUInt32BE(table.checksum, record + 4);
    sfnt.writeUInt32BE(offset, record + 8);
    sfnt.writeUInt32BE(table.data.length, record + 12);
    table.data.copy(sfnt, offset);
    offset += padded(table.data.length);
  });
  return sfnt;
}

const bidi = bidiFactory();

/** Marks that only steer the bidi algorithm: they have no glyph and are not drawn. */
const BIDI_CONTROLS = /[\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069]/u;

// Windows-1252's printable characters beyond Latin-1's.
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

/** Whether the standard fonts (Helvetica, Courier) can draw a character: Windows-1252. */
export function isWinAnsi(char: string): boolean {
  const code = char.codePointAt(0) ?? 0;
  return (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(char);
}

/** The text as the standard fonts draw it: what they cannot draw becomes '?', a line break a space. */
export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) out += isWinAnsi(char) ? char : char === '\n' ? ' ' : '?';
  return out;
}

/** A run of one level and one font, in logical order. */
interface Run {
  text: string;
  level: number;
  face: Face | undefined;
}

export interface WriteOptions {
  x: number;
  y: number;
  width: number;
  size: number;
  weight?: Weight;
  color?: string;
  align: 'left' | 'right' | 'center';
  /** The paragraph's direction: the page's, or 'auto' for text a person typed (its first strong letter decides). */
  direction: 'ltr' | 'rtl' | 'auto';
  /** Lines beyond these are cut, the last one ending with '…'. */
  maxLines?: number;
}

/** Space between lines, per em, over the fonts' own height. */
const LINE_GAP = 0.2;

/** Writes text of any script and direction into a pdfkit document (see the module's comment). */
export class BidiWriter {
  private readonly registered = new Set<string>();
  /** Runs measured, by font, direction, size and text: fontkit shapes a run anew at every measure. */
  private readonly widths = new Map<string, number>();

  constructor(
    private readonly doc: PDFKit.PDFDocument,
    private readonly faces: Faces,
  ) {}

  /** Draws `text` from its top at `y`, in lines of at most `width`; the y just below its last line. */
  write(text: string, options: WriteOptions): number {
    const weight = options.weight ?? 'regular';
    const direction = options.direction === 'auto' ? paragraphDirection(text) : options.direction;
    const lines = this.wrap(text.normalize('NFC').replace(/\s+/g, ' ').trim(), weight, options, direction);
    let y = options.y;
    for (const line of lines) y = this.drawLine(line, weight, direction, y, options);
    return y;
  }

  /** The lines of a paragraph: whole words while they fit (a word too long for a line is cut). */
  private wrap(text: string, weight: Weight, options: WriteOptions, direction: 'ltr' | 'rtl'): string[] {
    const fits = (line: string) => this.width(line, weight, direction, options.size) <= options.width;
    if (fits(text)) return [text];
    const lines: string[] = [];
    let current = '';
    for (const word of text.split(' ')) {
      const candidate = current ? `${current} ${word}` : word;
      if (fits(candidate) || !current) current = candidate;
      else {
        lines.push(current);
        current = word;
      }
    }
    if (current) lines.push(current);
    const maxLines = options.maxLines ?? Number.POSITIVE_INFINITY;
    const kept = lines.slice(0, maxLines);
    const cut = lines.length > maxLines;
    // The last line kept (or any line still too wide, a single long word) ends with '…' where it is cut.
    return kept.map((line, index) => {
      const last = index === kept.length - 1;
      if (fits(line) && !(last && cut)) return line;
      const chars = Array.from(line);
      while (chars.length > 0 && !fits(`${chars.join('').trimEnd()}…`)) chars.pop();
      return `${chars.join('').trimEnd()}…`;
    });
  }

  /** The runs of a line: its characters by bidi level and by the first font that has them. */
  private runs(line: string, weight: Weight, direction: 'ltr' | 'rtl'): Run[] {
    const { levels } = bidi.getEmbeddingLevels(line, direction);
    const runs: Run[] = [];
    let index = 0;
    for (const char of line) {
      const level = levels[index] ?? 0;
      index += char.length;
      if (BIDI_CONTROLS.test(char)) continue;
      const codePoint = char.codePointAt(0) ?? 0;
      const face = this.faces[weight].find((candidate) => candidate.font.hasGlyphForCodePoint(codePoint));
      // Mirrored in a right-to-left run: '(' reads as ')' from the right.
      const drawn = level % 2 === 1 ? (bidi.getMirroredCharacter(char) ?? char) : char;
      const last = runs.at(-1);
      if (last && last.level === level && last.face === face) last.text += drawn;
      else runs.push({ text: drawn, level, face });
    }
    return runs;
  }

  /** Selects a run's font and size; the pdfkit options that shape it in its direction. */
  private use(run: Run, weight: Weight, size: number): PDFKit.Mixins.TextOptions {
    if (!run.face) {
      this.doc.font(FALLBACK[weight]).fontSize(size);
      return {};
    }
    if (!this.registered.has(run.face.name)) {
      this.doc.registerFont(run.face.name, run.face.file);
      this.registered.add(run.face.name);
    }
    this.doc.font(run.face.name).fontSize(size);
    // pdfkit hands `features` to fontkit's layout(), which takes a string there as the script: fontkit then
    // shapes the whole run at once (not word by word) and in that script's direction. Arabic's is right to
    // left, which is what an odd bidi level means; digits and Latin in an Arabic line are shaped left to right.
    const script = run.level % 2 === 1 ? 'arab' : 'latn';
    return { features: script as unknown as PDFKit.Mixins.OpenTypeFeatures[] };
  }

  /** A run's text as drawn: the standard fonts draw Windows-1252 only, and draw it left to right. */
  private drawnText(run: Run): string {
    if (run.face) return run.text;
    const text = toWinAnsi(run.text);
    return run.level % 2 === 1 ? Array.from(text).reverse().join('') : text;
  }

  private runWidth(run: Run, weight: Weight, size: number): number {
    const key = `${run.face?.name ?? FALLBACK[weight]} ${run.level % 2} ${size} ${run.text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      width = this.doc.widthOfString(this.drawnText(run), this.use(run, weight, size));
      this.widths.set(key, width);
    }
    return width;
  }

  private width(line: string, weight: Weight, direction: 'ltr' | 'rtl', size: number): number {
    return this.runs(line, weight, direction).reduce((sum, run) => sum + this.runWidth(run, weight, size), 0);
  }

  private drawLine(line: string, weight: Weight, direction: 'ltr' | 'rtl', y: number, options: WriteOptions): number {
    const { size } = options;
    const runs = visualOrder(this.runs(line, weight, direction));
    const widths = runs.map((run) => this.runWidth(run, weight, size));
    const total = widths.reduce((sum, width) => sum + width, 0);
    const metrics = runs.map(({ face }) =>
      face
        ? { ascent: face.font.ascent / face.font.unitsPerEm, descent: face.font.descent / face.font.unitsPerEm }
        : FALLBACK_METRICS,
    );
    const ascent = Math.max(FALLBACK_METRICS.ascent, ...metrics.map((m) => m.ascent)) * size;
    const descent = Math.min(FALLBACK_METRICS.descent, ...metrics.map((m) => m.descent)) * size;
    const baseline = y + ascent;
    let x =
      options.align === 'left'
        ? options.x
        : options.align === 'right'
          ? options.x + options.width - total
          : options.x + (options.width - total) / 2;
    if (options.color) this.doc.fillColor(options.color);
    runs.forEach((run, index) => {
      const textOptions = this.use(run, weight, size);
      this.doc.text(this.drawnText(run), x, baseline, { ...textOptions, lineBreak: false, baseline: 'alphabetic' });
      x += widths[index] ?? 0;
    });
    return baseline - descent + LINE_GAP * size;
  }
}

/** Runs in the order they are drawn, left to right (the algorithm's rule L2, with runs as its units). */
export function visualOrder<T extends { level: number }>(runs: T[]): T[] {
  const ordered = [...runs];
  if (ordered.length === 0) return ordered;
  const highest = Math.max(...ordered.map((run) => run.level));
  const lowestOdd = Math.min(...ordered.map((run) => run.level)) | 1;
  for (let level = highest; level >= lowestOdd; level--) {
    let start = 0;
    while (start < ordered.length) {
      if ((ordered[start]?.level ?? 0) < level) {
        start++;
        continue;
      }
      let end = start;
      while (end < ordered.length && (ordered[end]?.level ?? 0) >= level) end++;
      ordered.splice(start, end - start, ...ordered.slice(start, end).reverse());
      start = end;
    }
  }
  return ordered;
}

/** The direction of a paragraph a person typed: that of its first strong letter, else left to right. */
export function paragraphDirection(text: string): 'ltr' | 'rtl' {
  const paragraph = bidi.getEmbeddingLevels(text).paragraphs[0];
  return paragraph && paragraph.level % 2 === 1 ? 'rtl' : 'ltr';
}

/** Whether a text needs more than the standard fonts can draw. */
export function needsUnicode(text: string): boolean {
  for (const char of text.normalize('NFC')) if (char !== '\n' && !isWinAnsi(char)) return true;
  return false;
}
