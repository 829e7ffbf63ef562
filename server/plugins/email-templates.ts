import { z } from 'zod';
import { i18nOf } from '../../contracts/i18n/all';
import type { I18n } from '../../contracts/i18n/i18n';
import { instantIn } from '../../contracts/i18n/instant';
import { DEFAULT_LANG, isLang, LANGUAGES, type Lang } from '../../contracts/i18n/languages';
import type { MessageKey, MessageParams } from '../../contracts/i18n/types';
import { escapeHtml } from '../web-app/html-encoding';

/**
 * Every email Eventry sends, as plain text and HTML, in its recipient's language (the `emails` namespace of
 * contracts/i18n). Anything a user typed is HTML-escaped. In Arabic the HTML says `lang="ar" dir="rtl"` (on
 * `<html>`, and on the content's box, as some mail clients drop `<html>`'s attributes) and is aligned right;
 * the English emails are what they have always been.
 */

interface Rendered {
  subject: string;
  text: string;
  html: string;
}

/** A message as HTML: its text escaped, its placeholders filled with HTML fragments (escaped by the caller). */
function html(i18n: I18n, key: MessageKey, fragments: Record<string, string> = {}): string {
  return escapeHtml(i18n.t(key)).replace(/\{(\w+)\}/g, (whole, name: string) => fragments[name] ?? whole);
}

/** A message with values (counts, prices, dates), escaped whole. */
function escaped(i18n: I18n, key: MessageKey, params?: MessageParams): string {
  return escapeHtml(i18n.t(key, params));
}

/**
 * Escaped text a user typed, or an address, inside an Arabic email: in its own direction (`auto` for names and
 * titles, `ltr` for emails and links), so that it does not reorder the Arabic around it. English adds nothing.
 */
function isolated(i18n: I18n, text: string, dir: 'auto' | 'ltr' = 'auto'): string {
  return i18n.dir === 'rtl' ? `<span dir="${dir}">${escapeHtml(text)}</span>` : escapeHtml(text);
}

/**
 * A link written out. In Arabic it is a box of its own, left to right and aligned left, so that a link longer
 * than the line wraps as one reads it instead of each of its pieces hanging off the right margin.
 */
function linkText(i18n: I18n, url: string): string {
  return i18n.dir === 'rtl'
    ? `<span dir="ltr" style="display:inline-block;text-align:left;word-break:break-all">${escapeHtml(url)}</span>`
    : escapeHtml(url);
}

/** 'Hi Mona,' (escaped), or 'Hi there,' for an account without a name. */
function greetingHtml(i18n: I18n, name: string): string {
  return name ? html(i18n, 'emails.greeting', { name: isolated(i18n, name) }) : escaped(i18n, 'emails.greetingNoName');
}

function greetingText(i18n: I18n, name: string): string {
  return name ? i18n.t('emails.greeting', { name }) : i18n.t('emails.greetingNoName');
}

/** The page around an email's content: the brand above, 'Sent by Eventry.' below. */
function page(i18n: I18n, content: string): string {
  const rtl = i18n.dir === 'rtl';
  const root = rtl ? `<html lang="${i18n.lang}" dir="rtl">` : '<html>';
  const font = rtl ? "system-ui,'Segoe UI',Tahoma,Arial,sans-serif" : 'system-ui,sans-serif';
  const box = rtl
    ? '<div dir="rtl" style="max-width:560px;margin:0 auto;padding:32px 24px;direction:rtl;text-align:right">'
    : '<div style="max-width:560px;margin:0 auto;padding:32px 24px">';
  return `<!doctype html>${root}<body style="margin:0;background:#f1f5f9;font-family:${font};color:#0f172a">${box}<p style="font-weight:700;font-size:20px;color:#0d9488;margin:0 0 24px">${escaped(i18n, 'emails.brand')}</p>${content}<p style="margin:32px 0 0;font-size:12px;color:#94a3b8">${escaped(i18n, 'emails.sentBy')}</p></div></body></html>`;
}

/** A titled email of paragraphs (already HTML), with an optional button and its link written out. */
function layout(i18n: I18n, title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${p}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#14b8a6;color:#042f2e;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#64748b">${html(i18n, 'emails.openLink', { url: linkText(i18n, action.url) })}</p>`
    : '';
  return page(i18n, `<h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}${button}`);
}

export function renderEmail(
  kind: 'verification' | 'password-reset',
  data: { name: string; url: string },
  lang: Lang = DEFAULT_LANG,
): Rendered {
  const i18n = i18nOf(lang);
  const { t } = i18n;
  const name = data.name.trim();
  const texts =
    kind === 'verification'
      ? {
          subject: t('emails.verification.subject'),
          title: t('emails.verification.title'),
          lead: escaped(i18n, 'emails.verification.welcome'),
          leadText: t('emails.verification.welcomeText'),
          ignore: t('emails.verification.ignore'),
          action: t('emails.verification.action'),
        }
      : {
          subject: t('emails.passwordReset.subject'),
          title: t('emails.passwordReset.title'),
          lead: escaped(i18n, 'emails.passwordReset.asked'),
          leadText: t('emails.passwordReset.askedText'),
          ignore: t('emails.passwordReset.ignore'),
          action: t('emails.passwordReset.action'),
        };
  return {
    subject: texts.subject,
    text: [greetingText(i18n, name), '', texts.leadText, '', data.url, '', texts.ignore, '', t('emails.signOff')].join(
      '\n',
    ),
    html: layout(i18n, texts.title, [greetingHtml(i18n, name), texts.lead], { label: texts.action, url: data.url }),
  };
}

/** The contact form's message, sent to the team (CONTACT_TO) with reply-to set to the sender. */
export function renderContactEmail(
  message: {
    name: string;
    email: string;
    subject: string;
    description: string;
  },
  lang: Lang = DEFAULT_LANG,
): Rendered {
  const i18n = i18nOf(lang);
  const { t } = i18n;
  const { name, email, subject, description } = message;
  const label = (key: MessageKey) => `<strong>${escaped(i18n, key)}:</strong>`;
  // In Arabic each line of the description takes the direction of its own words (one may be in English).
  const descriptionHtml =
    i18n.dir === 'rtl'
      ? `<span dir="auto" style="display:block;white-space:pre-wrap;unicode-bidi:plaintext">${escapeHtml(description)}</span>`
      : `<span style="white-space:pre-wrap">${escapeHtml(description)}</span>`;
  return {
    subject: t('emails.contact.subject', { subject }),
    text: [
      t('emails.contact.intro'),
      '',
      `${t('emails.contact.nameLabel')}: ${name}`,
      `${t('emails.contact.emailLabel')}: ${email}`,
      `${t('emails.contact.subjectLabel')}: ${subject}`,
      '',
      `${t('emails.contact.descriptionLabel')}:`,
      description,
      '',
      t('emails.contact.reply', { name }),
      '',
      t('emails.signOff'),
    ].join('\n'),
    html: layout(i18n, t('emails.contact.title'), [
      `${label('emails.contact.nameLabel')} ${isolated(i18n, name)}<br>${label('emails.contact.emailLabel')} ${isolated(i18n, email, 'ltr')}<br>${label('emails.contact.subjectLabel')} ${isolated(i18n, subject)}`,
      label('emails.contact.descriptionLabel'),
      descriptionHtml,
      html(i18n, 'emails.contact.reply', { name: isolated(i18n, name) }),
    ]),
  };
}

/** What a booking confirmation says; it is queued as this data and rendered when it is delivered or shown. */
export const bookingConfirmationDataSchema = z.object({
  name: z.string(),
  title: z.string(),
  eventDate: z.string(),
  startTime: z.string(),
  endTime: z.string(),
  quantity: z.number().int(),
  totalPiasters: z.number().int(),
  /** The booking, whose tickets the email shows (absent from confirmations queued before tickets existed). */
  bookingId: z.string().optional(),
  /** The buyer's language (absent from confirmations queued before there were two: English). */
  lang: z.enum(LANGUAGES).optional(),
});
export type BookingConfirmationData = z.infer<typeof bookingConfirmationDataSchema>;

export function bookingConfirmationSubject(title: string, lang: Lang = DEFAULT_LANG): string {
  return i18nOf(lang).t('emails.booking.subject', { title });
}

/**
 * The language of an email queued as data: its data's `lang` (every kind stored as data carries it), English
 * for an email queued before there were two languages.
 */
export function storedMailLang(data: unknown): Lang {
  const lang = data !== null && typeof data === 'object' ? (data as { lang?: unknown }).lang : undefined;
  return isLang(lang) ? lang : DEFAULT_LANG;
}

/** What a feature adds to a rendered email (the tickets, for a booking confirmation): see mailer.ts. */
interface Extra {
  html?: string;
  text?: string;
}

export function renderBookingConfirmation(data: BookingConfirmationData, extra: Extra = {}): Rendered {
  const i18n = i18nOf(data.lang ?? DEFAULT_LANG);
  const { t } = i18n;
  const name = data.name.trim();
  const when = t('emails.booking.when', { weekday: i18n.weekday(data.eventDate), date: i18n.date(data.eventDate) });
  const times = t('emails.booking.times', { start: i18n.time(data.startTime), end: i18n.time(data.endTime) });
  const rows: Array<[MessageKey, string]> = [
    ['emails.booking.event', data.title],
    ['emails.booking.date', when],
    ['emails.booking.time', times],
    ['emails.booking.tickets', t('bookings.ticketCount', { count: data.quantity })],
    ['emails.booking.total', i18n.price(data.totalPiasters)],
  ];
  const text = [
    greetingText(i18n, name),
    '',
    t('emails.booking.confirmed', { title: data.title }),
    '',
    ...rows.map(([k, v]) => `${t(k)}: ${v}`),
    '',
    ...(extra.text ? [extra.text, ''] : []),
    t('emails.booking.whereTickets'),
    '',
    t('emails.signOff'),
  ].join('\n');
  const rtl = i18n.dir === 'rtl';
  const labelPadding = rtl ? '6px 0 6px 16px' : '6px 16px 6px 0';
  const table = rows
    .map(
      ([k, v], index) =>
        `<tr><td style="padding:${labelPadding};color:#64748b">${escaped(i18n, k)}</td><td style="padding:6px 0;font-weight:600"${rtl && index === 0 ? ' dir="auto"' : ''}>${escapeHtml(v)}</td></tr>`,
    )
    .join('');
  const content = `<h1 style="font-size:20px;margin:0 0 16px">${escaped(i18n, 'emails.booking.title')}</h1><p style="margin:0 0 16px">${greetingHtml(i18n, name)}</p><p style="margin:0 0 16px">${html(i18n, 'emails.booking.confirmed', { title: isolated(i18n, data.title) })}</p><table style="border-collapse:collapse;margin:0 0 16px">${table}</table>${extra.html ?? ''}<p style="margin:0 0 16px">${escaped(i18n, 'emails.booking.whereTickets')}</p>`;
  return { subject: bookingConfirmationSubject(data.title, i18n.lang), text, html: page(i18n, content) };
}

/**
 * The bodies of an email queued as data (OutgoingMail's `data`), by its kind, in the language its data names.
 * Throws for a kind that is not stored as data or data that does not fit it (the delivery records that as a
 * failed attempt).
 */
export function renderStoredMail(
  kind: string,
  data: unknown,
  extra?: Extra,
): Pick<Rendered, 'text' | 'html'> & { subject?: string } {
  if (kind === 'booking-confirmation') {
    const { text, html } = renderBookingConfirmation(bookingConfirmationDataSchema.parse(data), extra);
    return { text, html };
  }
  // Queued by the database (ticketing/sql/eventry_waitlist.sql), which cannot write the subject in a language.
  if (kind === 'waitlist-offer') return renderWaitlistOffer(waitlistOfferDataSchema.parse(data));
  throw new Error(`emails of kind ${kind} are not stored as data`);
}

/** What a refund email says (contracts/refunds.ts): who refunded, how many tickets, how much. */
export interface RefundEmailData {
  name: string;
  title: string;
  quantity: number;
  amountPiasters: number;
  reason: 'buyer' | 'organiser' | 'event_cancelled';
}

/** The buyer's refund: their cancellation, the organiser's refund, or the event called off. */
export function refundEmail(data: RefundEmailData, lang: Lang = DEFAULT_LANG): Rendered {
  const i18n = i18nOf(lang);
  const { t } = i18n;
  const name = data.name.trim();
  const lead: MessageKey =
    data.reason === 'buyer'
      ? 'emails.refund.byBuyer'
      : data.reason === 'organiser'
        ? 'emails.refund.byOrganiser'
        : 'emails.refund.eventCancelled';
  const values = {
    tickets: t('bookings.ticketCount', { count: data.quantity }),
    amount: i18n.price(data.amountPiasters),
  };
  const leadText = t(lead, { ...values, title: data.title });
  const leadHtml = html(i18n, lead, {
    title: isolated(i18n, data.title),
    tickets: escapeHtml(values.tickets),
    amount: escapeHtml(values.amount),
  });
  const subject = t('emails.refund.subject', { title: data.title });
  return {
    subject,
    text: [greetingText(i18n, name), '', leadText, '', t('emails.refund.when'), '', t('emails.signOff')].join('\n'),
    html: layout(i18n, t('emails.refund.title'), [
      greetingHtml(i18n, name),
      leadHtml,
      escaped(i18n, 'emails.refund.when'),
    ]),
  };
}

const waitlistOfferDataSchema = z.object({
  name: z.string(),
  title: z.string(),
  quantity: z.number().int(),
  asked: z.number().int(),
  expiresAt: z.string(),
  timeZone: z.string(),
  url: z.string(),
  eventUrl: z.string(),
  lang: z.string().optional(),
});
export type WaitlistOfferData = z.infer<typeof waitlistOfferDataSchema>;

/** Tickets offered to a waitlisted user: how many, until when (in APP_TIMEZONE), the link to pay, how to decline. */
export function renderWaitlistOffer(data: WaitlistOfferData): Rendered {
  const i18n = i18nOf(isLang(data.lang) ? data.lang : DEFAULT_LANG);
  const { t } = i18n;
  const name = data.name.trim();
  const tickets = t('bookings.ticketCount', { count: data.quantity });
  const asked = t('bookings.ticketCount', { count: data.asked });
  const fewer = data.quantity < data.asked;
  const lead: MessageKey = fewer ? 'emails.waitlistOffer.offeredFewer' : 'emails.waitlistOffer.offered';
  const time = instantIn(i18n.lang, data.expiresAt, data.timeZone);
  const leadHtml = html(i18n, lead, {
    title: isolated(i18n, data.title),
    tickets: escapeHtml(tickets),
    asked: escapeHtml(asked),
  });
  const declineHtml = html(i18n, 'emails.waitlistOffer.decline', { url: linkText(i18n, data.eventUrl) });
  return {
    subject: t('emails.waitlistOffer.subject', { title: data.title }),
    text: [
      greetingText(i18n, name),
      '',
      t(lead, { title: data.title, tickets, asked }),
      '',
      t('emails.waitlistOffer.until', { time }),
      '',
      `${t('emails.waitlistOffer.pay')}: ${data.url}`,
      '',
      t('emails.waitlistOffer.decline', { url: data.eventUrl }),
      '',
      t('emails.signOff'),
    ].join('\n'),
    html: layout(
      i18n,
      t('emails.waitlistOffer.title'),
      [greetingHtml(i18n, name), leadHtml, escaped(i18n, 'emails.waitlistOffer.until', { time }), declineHtml],
      { label: t('emails.waitlistOffer.pay'), url: data.url },
    ),
  };
}
