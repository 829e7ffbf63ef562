import PDFDocument from 'pdfkit';
import { encode } from 'uqr';
import { formatDate, formatTime12, weekdayOf } from '../../../contracts/dates';
import { ticketsMessages as m } from '../../../contracts/messages/tickets';
import { QR_ENCODE_OPTIONS, qrPath } from '../../../contracts/ticket-qr';
import { formatShortCode, type MyTicket } from '../../../contracts/tickets';
import type { CalendarEvent } from './calendar';

/**
 * A booking's tickets as a PDF: one A5 page per ticket with its QR (vector), short code, 'Ticket n of N',
 * the event's title, date, times and location, and the holder's name.
 *
 * pdfkit's built-in fonts (Helvetica, Courier) draw Windows-1252 only, and no font that draws Arabic ships
 * with our packages: other characters are written as '?' rather than as wrong glyphs. The QR and the short
 * code, which get the holder in, are always exact.
 */

// Windows-1252's printable characters beyond Latin-1's.
const WIN_ANSI_EXTRA = '€‚ƒ„…†‡ˆ‰Š‹ŒŽ‘’“”•–—˜™š›œžŸ';

export function toWinAnsi(text: string): string {
  let out = '';
  for (const char of text.normalize('NFC')) {
    const code = char.codePointAt(0) ?? 0;
    const drawable = (code >= 0x20 && code <= 0x7e) || (code >= 0xa0 && code <= 0xff) || WIN_ANSI_EXTRA.includes(char);
    out += drawable ? char : char === '\n' ? ' ' : '?';
  }
  return out;
}

export interface TicketsPdfInput {
  event: CalendarEvent;
  holderName: string;
  tickets: MyTicket[];
  /** The time zone that check-in times are shown in. */
  timeZone: string;
}

const PAGE = { width: 419.53, height: 595.28 }; // A5 in points
const MARGIN = 36;
const QR_SIDE = 240;

export function renderTicketsPdf({ event, holderName, tickets, timeZone }: TicketsPdfInput): Promise<Buffer> {
  const doc = new PDFDocument({
    size: 'A5',
    margin: MARGIN,
    autoFirstPage: false,
    info: { Title: toWinAnsi(m.pdfTitle(event.title)), Author: 'Eventry' },
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (chunk: Buffer) => chunks.push(chunk));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const width = PAGE.width - 2 * MARGIN;
  const when = `${weekdayOf(event.eventDate)}, ${formatDate(event.eventDate)}`;
  const times = `${formatTime12(event.startTime)} - ${formatTime12(event.endTime)}`;
  const checkedIn = new Intl.DateTimeFormat('en-GB', { timeZone, dateStyle: 'medium', timeStyle: 'short' });

  for (const ticket of tickets) {
    doc.addPage();
    doc.fillColor('#0d9488').font('Helvetica-Bold').fontSize(12).text('Eventry', MARGIN, MARGIN, { width });
    doc.moveDown(0.6);
    doc
      .fillColor('#0f172a')
      .font('Helvetica-Bold')
      .fontSize(17)
      .text(toWinAnsi(event.title), { width, height: 66, ellipsis: true });
    doc.moveDown(0.3);
    doc.font('Helvetica').fontSize(11).fillColor('#334155');
    doc.text(`${when}  ·  ${times}`, { width });
    doc.text(toWinAnsi(event.location), { width, height: 28, ellipsis: true });
    doc.text(toWinAnsi(m.pdfHolder(holderName)), { width, height: 28, ellipsis: true });

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
    doc.fillColor('#0f172a').font('Courier-Bold').fontSize(20);
    doc.text(formatShortCode(ticket.code), MARGIN, below, { width, align: 'center' });
    doc.font('Helvetica-Bold').fontSize(13).text(m.ticketOf(ticket.number, ticket.of), { width, align: 'center' });
    if (ticket.status !== 'valid') {
      const status =
        ticket.status === 'void'
          ? m.void
          : m.checkedInAt(ticket.checkedInAt ? checkedIn.format(new Date(ticket.checkedInAt)) : '');
      doc.moveDown(0.3).fillColor('#b91c1c').font('Helvetica').fontSize(11).text(status, { width, align: 'center' });
    }
    doc.fillColor('#64748b').font('Helvetica').fontSize(9);
    doc.text(m.showAtDoor, MARGIN, PAGE.height - MARGIN - 12, { width, align: 'center', lineBreak: false });
  }
  doc.end();
  return done;
}
