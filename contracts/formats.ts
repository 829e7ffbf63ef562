/**
 * The two formats the texts use (contracts/i18n/i18n.ts), in a module of their own: every first load carries the
 * texts, and with a module all its exports, so these do not bring the calendar code of contracts/dates.ts along.
 */

export const TIME_24_PATTERN = /^([01]\d|2[0-3]):([0-5]\d)(?::([0-5]\d))?$/;

/** '19:30' or '19:30:00' → '07:30 PM' (the spec's stored 12-hour form). */
export function formatTime12(time: string): string {
  const m = TIME_24_PATTERN.exec(time);
  if (!m) return time;
  const hours = Number(m[1]);
  const suffix = hours >= 12 ? 'PM' : 'AM';
  const h12 = hours % 12 === 0 ? 12 : hours % 12;
  return `${String(h12).padStart(2, '0')}:${m[2]} ${suffix}`;
}

/** 12345 piasters → '123.45'; whole pounds print without decimals ('150'). */
export function formatPiasters(piasters: number): string {
  const pounds = piasters / 100;
  return Number.isInteger(pounds) ? String(pounds) : pounds.toFixed(2);
}
