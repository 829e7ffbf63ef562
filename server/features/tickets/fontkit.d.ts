/** The little of fontkit (pdfkit's font engine, which has no types of its own) that pdf-text.ts asks. */
declare module 'fontkit' {
  export interface Font {
    unitsPerEm: number;
    ascent: number;
    descent: number;
    hasGlyphForCodePoint(codePoint: number): boolean;
  }
  export function create(buffer: Buffer): Font;
}
