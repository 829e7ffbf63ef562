import { z } from 'zod';
import { CURRENCY } from '../../contracts/constants';
import { formatDate, formatPiasters, formatTime12, weekdayOf } from '../../contracts/dates';
import { escapeHtml } from '../web-app/html-encoding';

/**
 * Every email Eventry sends, as plain text and HTML. Anything a user typed is HTML-escaped.
 */

interface Rendered {
  subject: string;
  text: string;
  html: string;
}

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }): string {
  const body = paragraphs.map((p) => `<p style="margin:0 0 16px">${p}</p>`).join('');
  const button = action
    ? `<p style="margin:24px 0"><a href="${escapeHtml(action.url)}" style="background:#14b8a6;color:#042f2e;padding:12px 20px;border-radius:8px;text-decoration:none;font-weight:600">${escapeHtml(action.label)}</a></p><p style="margin:0 0 16px;font-size:13px;color:#64748b">Or open this link: ${escapeHtml(action.url)}</p>`
    : '';
  return `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:system-ui,sans-serif;color:#0f172a"><div style="max-width:560px;margin:0 auto;padding:32px 24px"><p style="font-weight:700;font-size:20px;color:#0d9488;margin:0 0 24px">Eventry</p><h1 style="font-size:20px;margin:0 0 16px">${escapeHtml(title)}</h1>${body}${button}<p style="margin:32px 0 0;font-size:12px;color:#94a3b8">Sent by Eventry.</p></div></body></html>`;
}

export function renderEmail(kind: 'verification' | 'password-reset', data: { name: string; url: string }): Rendered {
  const name = data.name.trim() || 'there';
  if (kind === 'verification') {
    return {
      subject: 'Eventry: verify your email address',
      text: `Hi ${name},\n\nWelcome to Eventry! Please confirm your email address by opening this link:\n\n${data.url}\n\nIf you did not create an account, you can ignore this email.\n\n— Eventry`,
      html: layout(
        'Verify your email address',
        [`Hi ${escapeHtml(name)},`, 'Welcome to Eventry! Please confirm your email address.'],
        { label: 'Verify email', url: data.url },
      ),
    };
  }
  return {
    subject: 'Eventry: reset your password',
    text: `Hi ${name},\n\nSomeone asked to reset the password of your Eventry account. Open this link to choose a new one (it works once, within an hour):\n\n${data.url}\n\nIf it was not you, ignore this email.\n\n— Eventry`,
    html: layout(
      'Reset your password',
      [
        `Hi ${escapeHtml(name)},`,
        'Someone asked to reset the password of your Eventry account. The link works once, within an hour.',
      ],
      { label: 'Choose a new password', url: data.url },
    ),
  };
}

/** The contact form's message, sent to the team (CONTACT_TO) with reply-to set to the sender. */
export function renderContactEmail(message: {
  name: string;
  email: string;
  subject: string;
  description: string;
}): Rendered {
  const { name, email, subject, description } = message;
  return {
    subject: `Eventry contact: ${subject}`,
    text: `New message from the Eventry contact form.\n\nName: ${name}\nEmail: ${email}\nSubject: ${subject}\n\nEvent description:\n${description}\n\nReply to this email to answer ${name} directly.\n\n— Eventry`,
    html: layout('New contact message', [
      `<strong>Name:</strong> ${escapeHtml(name)}<br><strong>Email:</strong> ${escapeHtml(email)}<br><strong>Subject:</strong> ${escapeHtml(subject)}`,
      `<strong>Event description:</strong>`,
      `<span style="white-space:pre-wrap">${escapeHtml(description)}</span>`,
      `Reply to this email to answer ${escapeHtml(name)} directly.`,
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
});
export type BookingConfirmationData = z.infer<typeof bookingConfirmationDataSchema>;

export function bookingConfirmationSubject(title: string): string {
  return `Eventry: your tickets for ${title}`;
}

/** What a feature adds to a rendered email (the tickets, for a booking confirmation): see mailer.ts. */
interface Extra {
  html?: string;
  text?: string;
}

export function renderBookingConfirmation(data: BookingConfirmationData, extra: Extra = {}): Rendered {
  const name = data.name.trim() || 'there';
  const when = `${weekdayOf(data.eventDate)}, ${formatDate(data.eventDate)}`;
  const times = `${formatTime12(data.startTime)} - ${formatTime12(data.endTime)}`;
  const tickets = `${data.quantity} ${data.quantity === 1 ? 'ticket' : 'tickets'}`;
  const total = `${formatPiasters(data.totalPiasters)} ${CURRENCY}`;
  const rows: Array<[string, string]> = [
    ['Event', data.title],
    ['Date', when],
    ['Time', times],
    ['Tickets', tickets],
    ['Total paid', total],
  ];
  const text = [
    `Hi ${name},`,
    '',
    `Your booking for ${data.title} is confirmed.`,
    '',
    ...rows.map(([k, v]) => `${k}: ${v}`),
    '',
    ...(extra.text ? [extra.text, ''] : []),
    'Your tickets are in your profile under Your Tickets.',
    '',
    '— Eventry',
  ].join('\n');
  const table = rows
    .map(
      ([k, v]) =>
        `<tr><td style="padding:6px 16px 6px 0;color:#64748b">${escapeHtml(k)}</td><td style="padding:6px 0;font-weight:600">${escapeHtml(v)}</td></tr>`,
    )
    .join('');
  const html = `<!doctype html><html><body style="margin:0;background:#f1f5f9;font-family:system-ui,sans-serif;color:#0f172a"><div style="max-width:560px;margin:0 auto;padding:32px 24px"><p style="font-weight:700;font-size:20px;color:#0d9488;margin:0 0 24px">Eventry</p><h1 style="font-size:20px;margin:0 0 16px">Your booking is confirmed</h1><p style="margin:0 0 16px">Hi ${escapeHtml(name)},</p><p style="margin:0 0 16px">Your booking for ${escapeHtml(data.title)} is confirmed.</p><table style="border-collapse:collapse;margin:0 0 16px">${table}</table>${extra.html ?? ''}<p style="margin:0 0 16px">Your tickets are in your profile under Your Tickets.</p><p style="margin:32px 0 0;font-size:12px;color:#94a3b8">Sent by Eventry.</p></div></body></html>`;
  return { subject: bookingConfirmationSubject(data.title), text, html };
}

/**
 * The bodies of an email queued as data (OutgoingMail's `data`), by its kind. Throws for a kind that is
 * not stored as data or data that does not fit it (the delivery records that as a failed attempt).
 */
export function renderStoredMail(kind: string, data: unknown, extra?: Extra): Pick<Rendered, 'text' | 'html'> {
  if (kind === 'booking-confirmation') {
    const { text, html } = renderBookingConfirmation(bookingConfirmationDataSchema.parse(data), extra);
    return { text, html };
  }
  throw new Error(`emails of kind ${kind} are not stored as data`);
}
