/**
 * Calendar dates ('YYYY-MM-DD') and wall-clock times ('HH:MM' or 'HH:MM:SS') as plain strings.
 * Nothing here depends on the time zone of the process or the browser: "today" is always asked
 * for a named zone, and weekdays are computed from the date itself.
 */

import { TIME_24_PATTERN } from './formats';

export { formatPiasters, formatTime12 } from './formats';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;

export function isValidDate(value: string): boolean {
  const m = DATE_PATTERN.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** 24-hour HH:MM (seconds optional), hours 0-23, minutes 00-59. */
export function isValidTime24(value: string): boolean {
  return TIME_24_PATTERN.test(value);
}

/** Building an Intl.DateTimeFormat costs far more than using one: one per time zone, kept. */
const dayFormats = new Map<string, Intl.DateTimeFormat>();

function dayFormatIn(timeZone: string): Intl.DateTimeFormat {
  let format = dayFormats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
    dayFormats.set(timeZone, format);
  }
  return format;
}

/** Per zone, the date of the last minute asked about (formatting costs ~80 µs, and hot paths ask per request). */
const lastDayIn = new Map<string, { minute: number; date: string }>();

/**
 * Today's calendar date in the given IANA time zone, e.g. todayIn('Africa/Cairo') → '2026-11-21'.
 * Remembered for the rest of the minute: zones change date only on whole minutes (UTC offsets have been
 * whole minutes everywhere since 1972).
 */
export function todayIn(timeZone: string, now: Date = new Date()): string {
  const minute = Math.floor(now.getTime() / 60_000);
  const known = lastDayIn.get(timeZone);
  if (known?.minute === minute) return known.date;
  const parts = dayFormatIn(timeZone).formatToParts(now);
  const get = (type: string) => parts.find((p) => p.type === type)?.value ?? '';
  const date = `${get('year')}-${get('month')}-${get('day')}`;
  lastDayIn.set(timeZone, { minute, date });
  return date;
}

export function addDays(date: string, days: number): string {
  const m = DATE_PATTERN.exec(date);
  if (!m) throw new Error(`Not a date: ${date}`);
  const d = new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days));
  return d.toISOString().slice(0, 10);
}

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;

/** The weekday of a calendar date, the same in every time zone. */
/** Whole days from `from` to `to` (negative when `to` is earlier). */
export function daysBetween(from: string, to: string): number {
  const utc = (date: string) => {
    const m = DATE_PATTERN.exec(date);
    if (!m) throw new Error(`Not a date: ${date}`);
    return Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  };
  return Math.round((utc(to) - utc(from)) / 86_400_000);
}

export function weekdayOf(date: string): string {
  const m = DATE_PATTERN.exec(date);
  if (!m) return '';
  return WEEKDAYS[new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))).getUTCDay()] ?? '';
}

/** '2026-12-05' → 'Dec 5, 2026'. */
export function formatDate(date: string): string {
  const m = DATE_PATTERN.exec(date);
  if (!m) return date;
  return `${MONTHS[Number(m[2]) - 1]} ${Number(m[3])}, ${m[1]}`;
}

/** '19:30:00' → '19:30' (the form's 24-hour value). */
export function toTime24(time: string): string {
  const m = TIME_24_PATTERN.exec(time);
  return m ? `${m[1]}:${m[2]}` : time;
}
