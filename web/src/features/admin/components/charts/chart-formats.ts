import type { I18n } from '../../../../../../contracts/i18n/i18n';
import type { Lang } from '../../../../../../contracts/i18n/languages';

/**
 * The dashboard's own formats, beside the i18n runtime's (which writes full dates and prices): the short labels of
 * a chart's axes and the grouped counts of its figures, in the page's language (ar-EG digits in Arabic).
 */
export interface ChartFormats {
  /** 1234 → '1,234' / '١٬٢٣٤'. */
  count(value: number): string;
  /** An axis label: 12500 → '12.5K' / '١٢٫٥ ألف'. */
  compact(value: number): string;
  /** 0.25 → '25%' / '٢٥٪'. */
  percent(ratio: number): string;
  /** '2026-11-20' → 'Nov 20' / '٢٠ نوفمبر'. */
  shortDay(day: string): string;
  /** 'YYYY-MM-DDTHH' → '7 PM' / '٧ م'. */
  hour(hour: string): string;
  /** 'YYYY-MM-DDTHH' → '07:00 PM' (the runtime's time of day) for a table. */
  hourOfDay(hour: string): string;
}

const cache = new Map<Lang, ChartFormats>();

function utc(day: string, hour = 0): Date | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  return m ? new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]), hour)) : undefined;
}

function splitHour(hour: string): { day: string; hh: number } {
  return { day: hour.slice(0, 10), hh: Number(hour.slice(11, 13)) || 0 };
}

export function chartFormats(i18n: Pick<I18n, 'lang' | 'time'>): ChartFormats {
  const known = cache.get(i18n.lang);
  if (known) return known;
  const locale = i18n.lang === 'ar' ? 'ar-EG' : 'en-US';
  const grouped = new Intl.NumberFormat(locale);
  const compact = new Intl.NumberFormat(locale, { notation: 'compact', maximumFractionDigits: 1 });
  const percent = new Intl.NumberFormat(locale, { style: 'percent', maximumFractionDigits: 0 });
  const shortDay = new Intl.DateTimeFormat(locale, { month: 'short', day: 'numeric', timeZone: 'UTC' });
  const hour = new Intl.DateTimeFormat(locale, { hour: 'numeric', hour12: true, timeZone: 'UTC' });
  const formats: ChartFormats = {
    count: (value) => grouped.format(value),
    compact: (value) => compact.format(value),
    percent: (ratio) => percent.format(ratio),
    shortDay: (day) => {
      const at = utc(day);
      return at ? shortDay.format(at) : day;
    },
    hour: (value) => {
      const { day, hh } = splitHour(value);
      const at = utc(day, hh);
      return at ? hour.format(at) : value;
    },
    hourOfDay: (value) => i18n.time(`${String(splitHour(value).hh).padStart(2, '0')}:00`),
  };
  cache.set(i18n.lang, formats);
  return formats;
}
