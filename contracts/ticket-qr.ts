/**
 * How a ticket's QR code is drawn: one SVG path of its dark modules, one unit per module, the quiet zone
 * included. The same drawing serves the page (an <svg>), the email (a PNG made from the SVG) and the PDF
 * (pdfkit fills SVG paths), so that all three show the same code. The matrix comes from uqr's
 * `encode(text, QR_ENCODE_OPTIONS)` (contracts import only zod, so the callers encode).
 */

/**
 * Error correction M: a ticket's 132 characters make a 49-module code (version 8) that a phone still reads
 * from a screen with glare or a creased print. No border: the quiet zone is ours.
 */
export const QR_ENCODE_OPTIONS = { ecc: 'M', border: 0 } as const;

/** Light modules around the code, as the QR standard asks (scanners find the code by its edge). */
export const QR_QUIET_ZONE = 4;

/** The dark modules of a QR matrix (rows of booleans, true = dark) as one path; `size` includes the quiet zone. */
export function qrPath(matrix: readonly (readonly boolean[])[]): { size: number; path: string } {
  let path = '';
  matrix.forEach((row, y) => {
    let x = 0;
    while (x < row.length) {
      if (!row[x]) {
        x++;
        continue;
      }
      const from = x;
      while (x < row.length && row[x]) x++;
      path += `M${from + QR_QUIET_ZONE} ${y + QR_QUIET_ZONE}h${x - from}v1h${from - x}z`;
    }
  });
  return { size: matrix.length + 2 * QR_QUIET_ZONE, path };
}

/** The code as a standalone SVG document, black on white, `pixels` wide. */
export function qrSvg(matrix: readonly (readonly boolean[])[], pixels: number): string {
  const { size, path } = qrPath(matrix);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${pixels}" height="${pixels}" viewBox="0 0 ${size} ${size}" shape-rendering="crispEdges"><rect width="${size}" height="${size}" fill="#fff"/><path d="${path}" fill="#000"/></svg>`;
}
