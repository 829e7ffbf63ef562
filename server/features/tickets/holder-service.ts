import { encode } from 'uqr';
import { i18nOf } from '../../../contracts/i18n/all';
import { isLang, type Lang } from '../../../contracts/i18n/languages';
import { msg } from '../../../contracts/i18n/text';
import { isUuid } from '../../../contracts/ids';
import { QR_ENCODE_OPTIONS, qrSvg } from '../../../contracts/ticket-qr';
import { formatShortCode, type MyTicket } from '../../../contracts/tickets';
import type { Queryable } from '../../db/client';
import { ConflictError, NotFoundError } from '../../plugins/errors';
import type { MailExtras } from '../../plugins/mailer';
import { loadSharp } from '../../plugins/storage';
import { escapeHtml } from '../../web-app/html-encoding';
import { buildEventIcs, calendarFileName } from './calendar';
import { findCalendarEvent, findOwnBooking } from './holder-repository';

export interface TicketHolderDeps {
  db: Queryable;
  ticketsOfBooking(bookingId: string): Promise<MyTicket[]>;
  timeZone: string;
  appUrl: string;
}

export interface DownloadFile<Content = Buffer> {
  filename: string;
  content: Content;
}

export interface TicketHolderService {
  /** The event's .ics; 404 for an unknown or deleted event. */
  calendar(eventId: string): Promise<DownloadFile<string>>;
  /** The booking's tickets as a PDF in `lang`: 404 unless it is the user's, 409 unless it is paid. */
  ticketsPdf(bookingId: string, userId: string, lang?: Lang): Promise<DownloadFile>;
  /**
   * What the booking confirmation email adds: each ticket's QR inline, and the event's .ics. Its words are in
   * `lang` (the recipient's), else in the language the email's data names (`lang`), else in English.
   */
  confirmationExtras(data: unknown, lang?: Lang): Promise<MailExtras | undefined>;
}

/** A QR in the email: a PNG three times the size it is shown at, so that it stays sharp on dense screens. */
const EMAIL_QR_PX = 240;

export function createTicketHolderService({
  db,
  ticketsOfBooking,
  timeZone,
  appUrl,
}: TicketHolderDeps): TicketHolderService {
  async function calendarOf(eventId: string): Promise<DownloadFile<string> | undefined> {
    const event = isUuid(eventId) ? await findCalendarEvent(db, eventId) : undefined;
    if (!event) return undefined;
    return { filename: calendarFileName(event.title), content: buildEventIcs(event, { timeZone, appUrl }) };
  }

  return {
    async calendar(eventId) {
      const file = await calendarOf(eventId);
      if (!file) throw new NotFoundError(msg('tickets.eventNotFound'));
      return file;
    },

    async ticketsPdf(bookingId, userId, lang = 'en') {
      const booking = isUuid(bookingId) ? await findOwnBooking(db, bookingId, userId) : undefined;
      if (!booking) throw new NotFoundError(msg('tickets.bookingNotFound'), 'BOOKING_NOT_FOUND');
      if (booking.status !== 'paid') throw new ConflictError('BOOKING_NOT_PAID', msg('tickets.bookingNotPaid'));
      const tickets = await ticketsOfBooking(booking.id);
      // pdfkit (and its fonts) loads with the first PDF asked for, not at every start: ~1 s and ~30 MB a process.
      const { renderTicketsPdf } = await import('./pdf');
      const content = await renderTicketsPdf({
        event: booking.event,
        holderName: booking.holderName,
        tickets,
        timeZone,
        lang,
      });
      return { filename: calendarFileName(booking.event.title).replace(/\.ics$/, '-tickets.pdf'), content };
    },

    async confirmationExtras(data, lang) {
      // Confirmations queued before tickets existed carry no booking id: they go out as they were.
      const stored = data as { bookingId?: unknown; lang?: unknown } | null;
      const bookingId = stored?.bookingId;
      const { t } = i18nOf(lang ?? (isLang(stored?.lang) ? stored.lang : 'en'));
      if (typeof bookingId !== 'string' || !isUuid(bookingId)) return undefined;
      const tickets = (await ticketsOfBooking(bookingId)).filter((ticket) => ticket.status !== 'void');
      if (tickets.length === 0) return undefined;
      const sharp = await loadSharp();
      const images = await Promise.all(
        tickets.map(async (ticket) => ({
          ticket,
          cid: `ticket-${ticket.id}@eventry`,
          png: await sharp(Buffer.from(qrSvg(encode(ticket.qr, QR_ENCODE_OPTIONS).data, EMAIL_QR_PX * 3)))
            .png({ palette: true, colours: 2 })
            .toBuffer(),
        })),
      );
      const calendar = await calendarOf(tickets[0]?.eventId ?? '');
      const blocks = images.map(
        ({ ticket, cid }) =>
          `<div style="margin:0 0 24px;padding:16px;background:#ffffff;border:1px solid #e2e8f0;border-radius:12px;text-align:center"><p style="margin:0 0 8px;font-weight:700">${escapeHtml(t('tickets.ticketOf', { number: ticket.number, of: ticket.of }))}</p><img src="cid:${cid}" width="${EMAIL_QR_PX}" height="${EMAIL_QR_PX}" alt="${escapeHtml(t('tickets.qrLabel', { number: ticket.number, of: ticket.of }))}" style="display:block;margin:0 auto;background:#ffffff"><p style="margin:8px 0 0;font-family:ui-monospace,Menlo,Consolas,monospace;font-size:20px;letter-spacing:2px" dir="ltr">${escapeHtml(formatShortCode(ticket.code))}</p></div>`,
      );
      return {
        html: `<p style="margin:0 0 16px">${escapeHtml(t('tickets.emailIntro'))}</p>${blocks.join('')}`,
        text: [
          t('tickets.emailIntro'),
          '',
          ...tickets.map(
            (ticket) =>
              `${t('tickets.ticketOf', { number: ticket.number, of: ticket.of })}: ${formatShortCode(ticket.code)}`,
          ),
        ].join('\n'),
        attachments: [
          ...images.map(({ ticket, cid, png }) => ({
            filename: `ticket-${ticket.number}-of-${ticket.of}.png`,
            content: png,
            contentType: 'image/png',
            cid,
          })),
          ...(calendar
            ? [
                {
                  filename: calendar.filename,
                  content: calendar.content,
                  contentType: 'text/calendar; charset=utf-8; method=PUBLISH',
                },
              ]
            : []),
        ],
      };
    },
  };
}
