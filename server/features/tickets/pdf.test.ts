import { createRequire } from 'node:module';
import { inflateSync } from 'node:zlib';
import { describe, expect, it } from 'vitest';
import type { MyTicket } from '../../../contracts/tickets';
import { renderTicketsPdf } from './pdf';
import { loadFaces, paragraphDirection, sfntOfWoff, visualOrder } from './pdf-text';

const event = {
  id: '00000000-0000-4000-8000-000000000001',
  title: 'حفلة عمر خيرت — Cairo Jazz Night',
  location: 'دار الأوبرا المصرية، الزمالك',
  description: '',
  eventDate: '2026-12-05',
  startTime: '19:30',
  endTime: '22:00',
};

const tickets: MyTicket[] = [1, 2].map((number) => ({
  id: `00000000-0000-4000-8000-00000000001${number}`,
  bookingId: '00000000-0000-4000-8000-000000000020',
  eventId: event.id,
  number,
  of: 2,
  code: `7KQ4MXW2P${number + 1}`,
  qr: 'A'.repeat(132),
  status: number === 2 ? 'checked_in' : 'valid',
  checkedInAt: number === 2 ? '2026-12-05T17:42:00.000Z' : null,
}));

/** Every stream of a PDF, inflated. */
function streams(pdf: Buffer): string[] {
  const found: string[] = [];
  const text = pdf.toString('latin1');
  for (const match of text.matchAll(/stream\r?\n/g)) {
    const start = (match.index ?? 0) + match[0].length;
    const end = text.indexOf('endstream', start);
    try {
      found.push(inflateSync(pdf.subarray(start, end)).toString('latin1'));
    } catch {
      // not deflated (an image, a font file): not text
    }
  }
  return found;
}

/** The characters the PDF's embedded fonts say their glyphs stand for (their ToUnicode maps, as pdfkit writes them). */
function mappedCharacters(pdf: Buffer): Set<string> {
  const chars = new Set<string>();
  for (const stream of streams(pdf).filter((s) => s.includes('beginbfrange'))) {
    // '<0000> <001b> [<0000> <064a> <062a 0631> …]': each glyph's UTF-16 units (a ligature has several).
    for (const [, list] of stream.matchAll(/\[([^\]]*)\]/g)) {
      for (const [, units] of (list ?? '').matchAll(/<([0-9a-f ]+)>/gi)) {
        const codes = (units ?? '')
          .trim()
          .split(/\s+/)
          .map((unit) => Number.parseInt(unit, 16));
        for (const char of String.fromCharCode(...codes)) chars.add(char);
      }
    }
  }
  return chars;
}

describe('the tickets PDF', () => {
  it('is written in Arabic for an Arabic reader, with a font that draws Arabic, its letters searchable', async () => {
    const pdf = await renderTicketsPdf({
      event,
      holderName: 'سارة محمود',
      tickets,
      timeZone: 'Africa/Cairo',
      lang: 'ar',
    });
    const raw = pdf.toString('latin1');
    expect(raw.match(/\/Type \/Page\b/g)).toHaveLength(2);
    expect(raw).toContain('/Lang (ar)');
    expect(raw).toMatch(/\/BaseFont \/[A-Z]{6}\+IBMPlexSansArabic/);
    const drawn = mappedCharacters(pdf);
    // 'التذكرة ١ من ٢', 'حامل التذكرة: سارة محمود', 'السبت، ٥ ديسمبر ٢٠٢٦': every letter and digit has its glyph.
    for (const char of 'التذكرةمنحاسةمحمودالسبتديسمبر١٢٥٠٦٧٣') expect(drawn, char).toContain(char);
    // The title's English part too, from the same family's Latin glyphs.
    for (const char of 'CairoJazzNight') expect(drawn, char).toContain(char);
    // The short code stays in Courier, as in English: it is read out and typed at the door.
    const content = streams(pdf).join('\n');
    expect(raw).toContain('/BaseFont /Courier-Bold');
    expect(content).toContain(Buffer.from('7KQ4M-XW2P2', 'latin1').toString('hex'));
  });

  it('stays as it was in English: the standard fonts, no font file, when every text is Latin', async () => {
    const pdf = await renderTicketsPdf({
      event: { ...event, title: 'Cairo Jazz Night', location: 'Cairo Opera House' },
      holderName: 'Omar Hassan',
      tickets,
      timeZone: 'Africa/Cairo',
      lang: 'en',
    });
    const raw = pdf.toString('latin1');
    expect(raw).toContain('/BaseFont /Helvetica-Bold');
    expect(raw).not.toContain('IBMPlexSansArabic');
    expect(raw).not.toContain('/FontFile2');
  });

  it('draws an Arabic title in an English PDF instead of question marks', async () => {
    const pdf = await renderTicketsPdf({ event, holderName: 'Omar Hassan', tickets, timeZone: 'Africa/Cairo' });
    expect(pdf.toString('latin1')).toContain('IBMPlexSansArabic');
    for (const char of 'حفلةعمرخيرت') expect(mappedCharacters(pdf), char).toContain(char);
  });
});

describe('the PDF’s bidi layout', () => {
  it('draws runs in visual order: a right-to-left line from the right, its numbers and Latin left to right', () => {
    // 'التذكرة ١ من ٢' in an Arabic line: the words at level 1, the digits at level 2.
    const runs = [
      { text: 'التذكرة ', level: 1 },
      { text: '١', level: 2 },
      { text: ' من ', level: 1 },
      { text: '٢', level: 2 },
    ];
    expect(visualOrder(runs).map((run) => run.text)).toEqual(['٢', ' من ', '١', 'التذكرة ']);
    // Latin inside Arabic inside an English line (levels 0, 1, 2).
    const nested = [
      { text: 'Title: ', level: 0 },
      { text: 'حفلة ', level: 1 },
      { text: 'Jazz', level: 2 },
      { text: ' ليلة', level: 1 },
    ];
    expect(visualOrder(nested).map((run) => run.text)).toEqual(['Title: ', ' ليلة', 'Jazz', 'حفلة ']);
  });

  it('takes a typed text’s direction from its first strong letter', () => {
    expect(paragraphDirection('حفلة Jazz')).toBe('rtl');
    expect(paragraphDirection('Jazz حفلة')).toBe('ltr');
    expect(paragraphDirection('2026')).toBe('ltr');
  });

  it('reads the fonts as plain OpenType files, with the Arabic, Latin and Arabic-Indic digits they draw', async () => {
    const faces = await loadFaces();
    const [arabic, latin] = faces.regular;
    expect(arabic?.file.toString('latin1', 0, 4)).not.toBe('wOFF');
    expect(arabic?.font.hasGlyphForCodePoint('ت'.codePointAt(0) ?? 0)).toBe(true);
    expect(arabic?.font.hasGlyphForCodePoint('١'.codePointAt(0) ?? 0)).toBe(true);
    expect(latin?.font.hasGlyphForCodePoint('J'.codePointAt(0) ?? 0)).toBe(true);
    // A file that is not WOFF is given back as it is.
    const require = createRequire(import.meta.url);
    const plain = Buffer.from('OTTO not a woff');
    expect(sfntOfWoff(plain)).toBe(plain);
    expect(require.resolve('@fontsource/ibm-plex-sans-arabic/LICENSE')).toMatch(/LICENSE$/);
  });
});
