import { formatPiasters, formatTime12 } from '../formats';
import type { Lang } from './languages';
import type { PluralForm } from './types';

/**
 * The formats of the two languages, written out instead of asked of Intl. A page's first Intl.DateTimeFormat
 * makes the browser load its locale and calendar data: ~50 ms of one task on a slow phone (150–220 ms at
 * Lighthouse's 4× slowdown), the largest single piece of the home page's blocking time before this module
 * (docs/performance-notes.md, 2026-11-28 late). Intl stays the reference: `local-formats.test.ts` checks every
 * form against it over the values the app shows: whole numbers and fractions of up to three digits, amounts in
 * whole piasters, every date of the years 0000–9999 and every minute of a day. Beyond them (a fraction of more
 * digits, never a count or a price) these forms are plainer than Intl's: every digit, no rounding.
 *
 * English keeps the spec's forms ('Dec 5, 2026', 'Saturday', '07:30 PM', '150 EGP'); Arabic is Egypt's
 * (ar-EG as Intl writes it): Arabic-Indic digits, ٬ between thousands and ٫ before decimals, dates like
 * ٥ ديسمبر ٢٠٢٦, a 12-hour clock with ص/م, and the pound as ج.م. between right-to-left marks.
 */
export interface LocalFormats {
  /** 1234 → '1234' / '١٬٢٣٤'. */
  number(value: number): string;
  /** An amount in piasters as EGP: '150 EGP', '12.50 EGP' / '‏١٥٠ ج.م.‏'. */
  price(piasters: number): string;
  /** '2026-12-05' → 'Dec 5, 2026' / '٥ ديسمبر ٢٠٢٦'; anything else is returned as it is. */
  date(date: string): string;
  /** '2026-12-05' → 'Saturday' / 'السبت'; anything else gives ''. */
  weekday(date: string): string;
  /** '19:30' → '07:30 PM' / '٧:٣٠ م'; anything else is returned as it is. */
  time(time: string): string;
  /** The plural form of a count (Intl.PluralRules' category): English one/other, Arabic all six. */
  plural(count: number): PluralForm;
}

/** The names dates are written with, from the language's messages (common.months, common.weekdays). */
export interface CalendarNames {
  /** Twelve, January first. */
  months: readonly string[];
  /** Seven, Sunday first. */
  weekdays: readonly string[];
}

const AR_DIGITS = '٠١٢٣٤٥٦٧٨٩';
const AR_GROUP = '\u066C'; // ٬
const AR_DECIMAL = '\u066B'; // ٫
/** Intl's minus in Arabic: an Arabic letter mark, then '-'. */
const AR_MINUS = '\u061C-';
const RLM = '\u200F';
const NBSP = '\u00A0';

const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})/;

/**
 * A calendar date or a time of day as a UTC instant, as Date.UTC reads it (an impossible day rolls over:
 * '2026-02-31' is 3 March), so that the written-out forms and Intl (asked in UTC) see the same day.
 */
function utcOf(date: string, time = '00:00'): Date | undefined {
  const d = DATE_PATTERN.exec(date);
  const t = TIME_PATTERN.exec(time);
  if (!d || !t) return undefined;
  return new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2])));
}

function arabicDigits(text: string): string {
  return text.replace(/\d/g, (digit) => AR_DIGITS[Number(digit)] ?? digit);
}

/** '1234567' → '1٬234٬567' (ar-EG groups from the first thousand). */
function grouped(digits: string, separator: string): string {
  return digits.replace(/\B(?=(\d{3})+$)/g, separator);
}

/** English one/other, as CLDR for a whole number: 'one' is 1 (and -1). */
function englishPlural(n: number): PluralForm {
  return n === 1 ? 'one' : 'other';
}

/** Arabic's six forms, as CLDR for a whole number: 0, 1, 2, then by the last two digits: 3–10 few, 11–99 many. */
function arabicPlural(n: number): PluralForm {
  if (n === 0) return 'zero';
  if (n === 1) return 'one';
  if (n === 2) return 'two';
  const lastTwo = n % 100;
  if (lastTwo >= 3 && lastTwo <= 10) return 'few';
  if (lastTwo >= 11) return 'many';
  return 'other';
}

/** A count's form from the rules of whole numbers; a fraction is 'other' in both languages (CLDR). */
const pluralOf =
  (rule: (n: number) => PluralForm) =>
  (count: number): PluralForm =>
    Number.isInteger(count) ? rule(Math.abs(count)) : 'other';

const english = ({ months, weekdays }: CalendarNames): LocalFormats => {
  return {
    number: (value) => String(value),
    price: (piasters) => `${formatPiasters(piasters)} EGP`,
    date: (date) => {
      const at = utcOf(date);
      return at ? `${months[at.getUTCMonth()]} ${at.getUTCDate()}, ${at.getUTCFullYear()}` : date;
    },
    weekday: (date) => {
      const at = utcOf(date);
      return at ? (weekdays[at.getUTCDay()] ?? '') : '';
    },
    // The spec's stored form, two-digit hours: not Intl's (which may put a narrow space before PM).
    time: formatTime12,
    plural: pluralOf(englishPlural),
  };
};

const arabic = ({ months, weekdays }: CalendarNames): LocalFormats => {
  /** `value` with its fraction, if any, as JavaScript writes it (Intl would round it to three digits). */
  const number = (value: number) => {
    const [whole = '', fraction] = String(Math.abs(value)).split('.');
    const text = arabicDigits(grouped(whole, AR_GROUP) + (fraction ? AR_DECIMAL + fraction : ''));
    return value < 0 ? AR_MINUS + text : text;
  };
  return {
    number,
    price: (piasters) => {
      const abs = Math.abs(Math.round(piasters));
      const whole = abs % 100 === 0;
      const pounds = grouped(String(Math.floor(abs / 100)), AR_GROUP);
      const amount = arabicDigits(whole ? pounds : `${pounds}${AR_DECIMAL}${String(abs % 100).padStart(2, '0')}`);
      return `${piasters < 0 ? AR_MINUS : ''}${RLM}${amount}${NBSP}ج.م.${RLM}`;
    },
    date: (date) => {
      const at = utcOf(date);
      return at
        ? `${number(at.getUTCDate())} ${months[at.getUTCMonth()]} ${arabicDigits(String(at.getUTCFullYear()))}`
        : date;
    },
    weekday: (date) => {
      const at = utcOf(date);
      return at ? (weekdays[at.getUTCDay()] ?? '') : '';
    },
    time: (time) => {
      const at = utcOf('2000-01-01', time);
      if (!at) return time;
      const hours = at.getUTCHours();
      const minutes = String(at.getUTCMinutes()).padStart(2, '0');
      return `${number(hours % 12 === 0 ? 12 : hours % 12)}:${arabicDigits(minutes)} ${hours < 12 ? 'ص' : 'م'}`;
    },
    plural: pluralOf(arabicPlural),
  };
};

/** The formats of `lang`, its dates written with `names`. */
export function localFormats(lang: Lang, names: CalendarNames): LocalFormats {
  return lang === 'ar' ? arabic(names) : english(names);
}
