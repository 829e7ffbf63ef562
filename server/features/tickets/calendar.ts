import { calendarUtc, eventInstants } from '../../../contracts/calendar';

/**
 * An event as an iCalendar file (RFC 5545): one VEVENT with its start and end in UTC, computed from the
 * event's date and wall-clock times in the app's time zone. Served at GET /api/events/:id/calendar.ics and
 * attached to the booking confirmation: both call this.
 */

export interface CalendarEvent {
  id: string;
  title: string;
  location: string;
  description: string;
  eventDate: string;
  startTime: string;
  endTime: string;
}

/** A TEXT value: backslash, semicolon and comma escaped, every line break written as \n (RFC 5545 3.3.11). */
export function escapeIcsText(text: string): string {
  return text
    .replace(/\\/g, '\\\\')
    .replace(/;/g, '\\;')
    .replace(/,/g, '\\,')
    .replace(/\r\n|\r|\n/g, '\\n');
}

/**
 * Folds a content line into lines of at most 75 octets: each continuation starts with a space (which counts),
 * and a character's UTF-8 bytes are never split (RFC 5545 3.1).
 */
export function foldIcsLine(line: string): string {
  const out: string[] = [];
  let current = '';
  let octets = 0;
  let limit = 75;
  for (const char of line) {
    const size = Buffer.byteLength(char, 'utf8');
    if (octets + size > limit) {
      out.push(current);
      current = '';
      octets = 0;
      limit = 74; // the leading space of a continuation line is one of its 75 octets
    }
    current += char;
    octets += size;
  }
  out.push(current);
  return out.join('\r\n ');
}

/** A file name for the download: the title's letters and digits (any script), else 'event'. */
export function calendarFileName(title: string): string {
  const base = title
    .normalize('NFKC')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60);
  return `${base || 'event'}.ics`;
}

export function buildEventIcs(event: CalendarEvent, options: { timeZone: string; appUrl: string; now?: Date }): string {
  const { start, end } = eventInstants(event, options.timeZone);
  const url = `${options.appUrl}/event-details/${event.id}`;
  const host = new URL(options.appUrl).hostname || 'eventry';
  const lines = [
    'BEGIN:VCALENDAR',
    'VERSION:2.0',
    'PRODID:-//Eventry//Tickets//EN',
    'CALSCALE:GREGORIAN',
    'METHOD:PUBLISH',
    'BEGIN:VEVENT',
    `UID:event-${event.id}@${host}`,
    `DTSTAMP:${calendarUtc(options.now ?? new Date())}`,
    `DTSTART:${calendarUtc(start)}`,
    `DTEND:${calendarUtc(end)}`,
    `SUMMARY:${escapeIcsText(event.title)}`,
    `LOCATION:${escapeIcsText(event.location)}`,
    `DESCRIPTION:${escapeIcsText(`${event.description}\n\n${url}`)}`,
    `URL:${url}`,
    'END:VEVENT',
    'END:VCALENDAR',
  ];
  return `${lines.map(foldIcsLine).join('\r\n')}\r\n`;
}
