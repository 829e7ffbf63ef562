/**
 * An instant as the wall clock of a time zone reads it: '2026-12-05' and '19:30'. The organiser's zone
 * (APP_TIMEZONE), whatever the device's: a payment deadline on the payment page, times in the attendees' CSV.
 */

const formats = new Map<string, Intl.DateTimeFormat>();

export function wallClockIn(iso: string | Date, timeZone: string): { date: string; time: string } {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      hourCycle: 'h23',
    });
    formats.set(timeZone, format);
  }
  const parts = format.formatToParts(new Date(iso));
  const get = (type: Intl.DateTimeFormatPartTypes) => parts.find((part) => part.type === type)?.value ?? '';
  return { date: `${get('year')}-${get('month')}-${get('day')}`, time: `${get('hour')}:${get('minute')}` };
}
