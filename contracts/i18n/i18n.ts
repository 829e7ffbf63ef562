import { formatPiasters, formatTime12 } from '../formats';
import { dirOf, type Lang } from './languages';
import type { MessageKey, MessageParams, Plural } from './types';

/**
 * Texts and formats in one language, the same on the server and in the browser. The messages themselves are
 * data (contracts/i18n/en, contracts/i18n/ar): the server sends a page only its language's (in the HTML), and the
 * browser's JavaScript carries none (docs/decisions/018-languages.md).
 */
export interface I18n {
  lang: Lang;
  dir: 'ltr' | 'rtl';
  /** The message of a key, its placeholders filled; a plural's form chosen by `params.count`. */
  t(key: MessageKey, params?: MessageParams): string;
  /** 1234 → '1234' / '١٢٣٤'. */
  number(value: number): string;
  /** An amount in piasters as EGP: '150 EGP', '12.50 EGP' / '‏١٥٠ ج.م.‏'. */
  price(piasters: number): string;
  /** '2026-12-05' → 'Dec 5, 2026' / '٥ ديسمبر ٢٠٢٦'. */
  date(date: string): string;
  /** '2026-12-05' → 'Saturday' / 'السبت'. */
  weekday(date: string): string;
  /** '19:30' → '07:30 PM' / '٧:٣٠ م'. */
  time(time: string): string;
}

const PLACEHOLDER = /\{(\w+)\}/g;
const DATE_PATTERN = /^(\d{4})-(\d{2})-(\d{2})$/;
const TIME_PATTERN = /^(\d{2}):(\d{2})/;

type Tree = { readonly [key: string]: unknown };

function lookup(messages: Tree, key: string): string | Plural | undefined {
  let node: unknown = messages;
  for (const part of key.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Tree)[part];
  }
  // A key names a text or a plural, never a namespace (MessageKey): an object here is a plural.
  return typeof node === 'string' || (typeof node === 'object' && node !== null)
    ? (node as string | Plural)
    : undefined;
}

const PLURAL_FORMS = new Set(['zero', 'one', 'two', 'few', 'many', 'other']);

/**
 * An object of plural forms only, 'other' among them (a namespace may have a key 'other' too): how the messages'
 * tests tell a plural from a namespace.
 */
export function isPlural(node: unknown): node is Plural {
  return (
    node !== null &&
    typeof node === 'object' &&
    'other' in node &&
    Object.keys(node).every((form) => PLURAL_FORMS.has(form))
  );
}

/** A calendar date or a time of day as a UTC instant, so that Intl (asked in UTC) shows it as written. */
function utcOf(date: string, time = '00:00'): Date | undefined {
  const d = DATE_PATTERN.exec(date);
  const t = TIME_PATTERN.exec(time);
  if (!d || !t) return undefined;
  return new Date(Date.UTC(Number(d[1]), Number(d[2]) - 1, Number(d[3]), Number(t[1]), Number(t[2])));
}

type Formats = Pick<I18n, 'number' | 'price' | 'date' | 'weekday' | 'time'>;

/**
 * The formats of a language. English keeps the spec's exactly ('Dec 5, 2026', 'Saturday', '07:30 PM', '150 EGP');
 * Arabic is Egypt's: Arabic digits, the pound as ج.م., dates like ٥ ديسمبر ٢٠٢٦, a 12-hour clock with ص/م. Dates
 * and weekdays go through Intl in both (en-US writes them as the spec does); English times keep their own form
 * (Intl's en-US may put a narrow space before PM, and the server's and the browser's must be the same text).
 */
function formatsOf(lang: Lang): Formats {
  const ar = lang === 'ar';
  const locale = ar ? 'ar-EG' : 'en-US';
  const inUtc = (options: Intl.DateTimeFormatOptions) =>
    new Intl.DateTimeFormat(locale, { ...options, timeZone: 'UTC' });
  const day = inUtc(
    ar ? { day: 'numeric', month: 'long', year: 'numeric' } : { month: 'short', day: 'numeric', year: 'numeric' },
  );
  const weekday = inUtc({ weekday: 'long' });
  const clock = inUtc({ hour: 'numeric', minute: '2-digit', hour12: true });
  const number = new Intl.NumberFormat(locale);
  const money = (fraction: number) =>
    new Intl.NumberFormat(locale, { style: 'currency', currency: 'EGP', minimumFractionDigits: fraction });
  const whole = money(0);
  const cents = money(2);
  /** Formats a date-like string through `format`, or gives `fallback` when it is not one. */
  const through = (format: Intl.DateTimeFormat, at: Date | undefined, fallback: string) =>
    at ? format.format(at) : fallback;
  return {
    number: (value) => (ar ? number.format(value) : String(value)),
    price: (piasters) =>
      ar ? (piasters % 100 === 0 ? whole : cents).format(piasters / 100) : `${formatPiasters(piasters)} EGP`,
    date: (date) => through(day, utcOf(date), date),
    weekday: (date) => through(weekday, utcOf(date), ''),
    time: (time) => (ar ? through(clock, utcOf('2000-01-01', time), time) : formatTime12(time)),
  };
}

/** Texts and formats of `lang` from its messages (all of them, or the namespaces a page was sent). */
export function createI18n(lang: Lang, messages: Tree): I18n {
  const formats = formatsOf(lang);
  const plurals = new Intl.PluralRules(lang === 'ar' ? 'ar-EG' : 'en-US');

  function t(key: MessageKey | string, params?: MessageParams): string {
    const entry = lookup(messages, key);
    if (entry === undefined) return key;
    const text =
      typeof entry === 'string'
        ? entry
        : (entry[plurals.select(Number(params?.count ?? 0)) as keyof Plural] ?? entry.other ?? key);
    if (!params) return text;
    return text.replace(PLACEHOLDER, (whole, name: string) => {
      const value = params[name];
      return value === undefined ? whole : typeof value === 'number' ? formats.number(value) : value;
    });
  }

  return { lang, dir: dirOf(lang), t, ...formats };
}
