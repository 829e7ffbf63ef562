import { addDays } from './dates';

/**
 * An event's start and end as instants. Events are stored as a calendar date and wall-clock times of the
 * app's time zone (APP_TIMEZONE); calendars want UTC. Shared by the .ics file and the PDF (server) and the
 * Google Calendar link (web), so that all three say the same times.
 */

const offsetFormats = new Map<string, Intl.DateTimeFormat>();

/** The zone's offset from UTC at an instant, in milliseconds (Cairo in summer: +3 h). */
function offsetAt(instant: number, timeZone: string): number {
  let format = offsetFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    offsetFormats.set(timeZone, format);
  }
  const parts: Record<string, number> = {};
  for (const part of format.formatToParts(new Date(instant))) parts[part.type] = Number(part.value);
  const wall = Date.UTC(
    parts.year ?? 0,
    (parts.month ?? 1) - 1,
    parts.day ?? 1,
    parts.hour ?? 0,
    parts.minute ?? 0,
    parts.second ?? 0,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/**
 * The instant at which the wall clock of `timeZone` shows `date` `time` ('YYYY-MM-DD', 'HH:MM[:SS]').
 * Across a DST change: a time that happens twice is its first occurrence; a time the clocks skip is read
 * with the offset from before the change (00:30 on a night that jumps from 00:00 to 01:00 is 01:30).
 */
export function zonedInstant(date: string, time: string, timeZone: string): Date {
  const [y, mo, d] = date.split('-').map(Number);
  const [h, mi, s] = time.split(':').map(Number);
  const wall = Date.UTC(y ?? 0, (mo ?? 1) - 1, d ?? 1, h ?? 0, mi ?? 0, s ?? 0);
  // The offsets a day before and a day after (zones change at most once in two days): the instant is the
  // earliest that either makes show this wall time, else (a skipped time) the one read with the first.
  const offsets = [offsetAt(wall - 86_400_000, timeZone), offsetAt(wall + 86_400_000, timeZone)];
  const candidates = offsets.map((offset) => wall - offset).sort((a, b) => a - b);
  const found = candidates.find((instant) => instant + offsetAt(instant, timeZone) === wall);
  return new Date(found ?? wall - (offsets[0] ?? 0));
}

export interface EventTimes {
  eventDate: string;
  startTime: string;
  endTime: string;
}

/**
 * When the event starts and ends. An end time earlier than the start time is on the next day (a night that
 * goes on past midnight: the event form accepts any two times).
 */
export function eventInstants(event: EventTimes, timeZone: string): { start: Date; end: Date } {
  const start = zonedInstant(event.eventDate, event.startTime, timeZone);
  const endDate = toSeconds(event.endTime) < toSeconds(event.startTime) ? addDays(event.eventDate, 1) : event.eventDate;
  return { start, end: zonedInstant(endDate, event.endTime, timeZone) };
}

function toSeconds(time: string): number {
  const [h, m, s] = time.split(':').map(Number);
  return (h ?? 0) * 3600 + (m ?? 0) * 60 + (s ?? 0);
}

/** 20261205T173000Z: an instant in the basic UTC form of iCalendar and Google Calendar. */
export function calendarUtc(instant: Date): string {
  return instant
    .toISOString()
    .replace(/\.\d{3}Z$/, 'Z')
    .replace(/[-:]/g, '');
}

/** A Google Calendar link that opens a new event with these details (the user follows it; we never fetch it). */
export function googleCalendarUrl(event: {
  title: string;
  start: Date;
  end: Date;
  details: string;
  location: string;
}): string {
  const query = new URLSearchParams({
    action: 'TEMPLATE',
    text: event.title,
    dates: `${calendarUtc(event.start)}/${calendarUtc(event.end)}`,
    details: event.details,
    location: event.location,
  });
  return `https://calendar.google.com/calendar/render?${query.toString()}`;
}

/** The path of an event's .ics file. */
export function eventCalendarPath(eventId: string): string {
  return `/api/events/${encodeURIComponent(eventId)}/calendar.ics`;
}

/** The path of a booking's tickets as a PDF. */
export function bookingTicketsPdfPath(bookingId: string): string {
  return `/api/bookings/${encodeURIComponent(bookingId)}/tickets.pdf`;
}
