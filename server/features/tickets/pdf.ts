import PDFDocument from 'pdfkit';
import { encode } from 'uqr';
import { i18nOf } from '../../../contracts/i18n/all';
import { instantIn } from '../../../contracts/i18n/instant';
import type { Lang } from '../../../contracts/i18n/languages';
import { QR_ENCODE_OPTIONS, qrPath } from '../../../contracts/ticket-qr';
import { formatShortCode, type MyTicket } from '../../../contracts/tickets';
import type { CalendarEvent } from './calendar';
import { BidiWriter, loadFaces, needsUnicode, toWinAnsi, type Weight } from './pdf-text';

export { toWinAnsi } from './pdf-text';

/**
 * A booking's tickets as a PDF, in the holder's language: one A5 page per ticket with its QR (vector), short
 * code, 'Ticket n of N', the event's title, date, times and location, and the holder's name.
 *
 * An English PDF whose texts the standard fonts draw (Windows-1252) is written with Helvetica, as it always was.
 * An Arabic one, or one with a title, place or name in another script, is written with Noto Sans Arabic and
 * laid out right to left where the text runs so (pdf-text.ts). The QR and the short code, which get the holder
 * in, are the same in every language.
 */

export interface TicketsPdfInput {
  event: CalendarEvent;
  holderName: string;
  tickets: MyTicket[];
  /** The time zone that check-in times are shown in. */
  timeZone: string;
  /** The holder's language (the request's). */
  lang?: Lang;
}

const PAGE = { width: 419.53, height: 595.28 }; // A5 in points
const MARGIN = 36;
const QR_SIDE = 240;

/** One line (or a few) of the page: its text and how it is set. */
interface Line {
  text: string;
  size: number;
  weight?: Weight;
  color?: string;
  /** The space it may take (English layout), or the lines (Unicode layout). */
  height?: number;
  maxLines?: number;
  /** Typed by a person: its own direction. */
  typed?: boolean;
  center?: boolean;
}

export async function renderTicketsPdf({
  event,
  holderName,
  tickets,
  timeZone,
  lang = 'en',
}: TicketsPdfInput): Promise<Buffer> {
  const i18n = i18nOf(lang);
  const { t } = i18n;
  const doc = new PDFDocument({
    size: 'A5',
    margin: MARGIN,
    autoFirstPage: false,
    lang,
    info: { Title: t('tickets.pdfTitle', { title: event.title }), Author: t('common.brand') },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = PAGE.width - 2 * MARGIN;
  const when = t('tickets.pdfWhen', {
    date: t('catalogue.weekdayDate', { weekday: i18n.weekday(event.eventDate), date: i18n.date(event.eventDate) }),
    start: i18n.time(event.startTime),
    end: i18n.time(event.endTime),
  });
  const typed = [event.title, event.location, holderName];
  const writer = lang !== 'en' || typed.some(needsUnicode) ? new BidiWriter(doc, await loadFaces()) : undefined;
  const rtl = i18n.dir === 'rtl';

  /** Writes a line where the last one ended (English layout: as pdfkit flows text) and moves below it. */
  const write = (line: Line, at?: { x: number; y: number }) => {
    const x = at?.x ?? MARGIN;
    const y = at?.y ?? doc.y;
    if (writer && (lang !== 'en' || needsUnicode(line.text))) {
      doc.y = writer.write(line.text, {
        x,
        y,
        width,
        size: line.size,
        weight: line.weight,
        color: line.color,
        align: line.center ? 'center' : rtl ? 'right' : 'left',
        direction: line.typed ? 'auto' : i18n.dir,
        maxLines: line.maxLines,
      });
      doc.x = x;
      return;
    }
    if (line.color) doc.fillColor(line.color);
    doc.font(line.weight === 'bold' ? 'Helvetica-Bold' : 'Helvetica').fontSize(line.size);
    const options: PDFKit.Mixins.TextOptions = {
      width,
      ...(line.center ? { align: 'center' } : {}),
      ...(line.height ? { height: line.height, ellipsis: true } : {}),
    };
    if (at) doc.text(toWinAnsi(line.text), at.x, at.y, options);
    else doc.text(toWinAnsi(line.text), options);
  };

  for (const ticket of tickets) {
    doc.addPage();
    write({ text: t('common.brand'), size: 12, weight: 'bold', color: '#0d9488' }, { x: MARGIN, y: MARGIN });
    doc.moveDown(0.6);
    write({ text: event.title, size: 17, weight: 'bold', color: '#0f172a', height: 66, maxLines: 2, typed: true });
    doc.moveDown(0.3);
    doc.font('Helvetica').fontSize(11).fillColor('#334155');
    write({ text: when, size: 11 });
    write({ text: event.location, size: 11, height: 28, maxLines: 1, typed: true });
    write({ text: t('tickets.pdfHolder', { name: holderName }), size: 11, height: 28, maxLines: 1 });

    const { size, path } = qrPath(encode(ticket.qr, QR_ENCODE_OPTIONS).data);
    const qrX = (PAGE.width - QR_SIDE) / 2;
    const qrY = Math.max(doc.y + 12, 190);
    doc.save().rect(qrX, qrY, QR_SIDE, QR_SIDE).fill('#ffffff').restore();
    doc
      .save()
      .translate(qrX, qrY)
      .scale(QR_SIDE / size)
      .path(path)
      .fill('#000000')
      .restore();

    const below = qrY + QR_SIDE + 8;
    // The short code is read out and typed at the door: Latin letters and digits, left to right, everywhere.
    doc.fillColor('#0f172a').font('Courier-Bold').fontSize(20);
    doc.text(formatShortCode(ticket.code), MARGIN, below, { width, align: 'center' });
    write({
      text: t('tickets.ticketOf', { number: ticket.number, of: ticket.of }),
      size: 13,
      weight: 'bold',
      center: true,
    });
    if (ticket.status !== 'valid') {
      const status =
        ticket.status === 'void'
          ? t('tickets.void')
          : t('tickets.checkedInAt', { when: ticket.checkedInAt ? instantIn(lang, ticket.checkedInAt, timeZone) : '' });
      doc.moveDown(0.3);
      write({ text: status, size: 11, color: '#b91c1c', center: true });
    }
    const footer = { text: t('tickets.showAtDoor'), size: 9, color: '#64748b', center: true };
    if (writer && lang !== 'en') write(footer, { x: MARGIN, y: PAGE.height - MARGIN - 16 });
    else {
      doc.fillColor(footer.color).font('Helvetica').fontSize(footer.size);
      doc.text(footer.text, MARGIN, PAGE.height - MARGIN - 12, { width, align: 'center', lineBreak: false });
    }
  }
  doc.end();
  return done;
}
