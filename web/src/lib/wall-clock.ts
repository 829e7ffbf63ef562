import type { I18n } from '../../../contracts/i18n/i18n';
import { wallClockIn } from '../../../contracts/wall-clock';

/**
 * The app's time zone (APP_TIMEZONE's default) for answers that do not name it: a booking's deadline is an
 * instant, told as the organiser's wall clock reads it, whatever the device's zone.
 */
export const DEFAULT_TIME_ZONE = 'Africa/Cairo';

/** A deadline's {time} and {date} in the page's language ('07:30 PM', 'Dec 5, 2026'). */
export function deadlineParams(i18n: Pick<I18n, 'time' | 'date'>, iso: string, timeZone: string) {
  const { date, time } = wallClockIn(iso, timeZone);
  return { time: i18n.time(time), date: i18n.date(date) };
}
