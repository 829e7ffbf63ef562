import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MESSAGES } from './all';
import type { Lang } from './languages';
import { localFormats } from './local-formats';

// The written-out formats against Intl, the reference they replace on a page's first load. What the test
// compares is what a reader sees: the same text, character for character (marks and spaces included).
const LOCALES: Record<Lang, string> = { en: 'en-US', ar: 'ar-EG' };
const inUtc = (lang: Lang, options: Intl.DateTimeFormatOptions) =>
  new Intl.DateTimeFormat(LOCALES[lang], { ...options, timeZone: 'UTC' });
const reference = (lang: Lang) => ({
  number: new Intl.NumberFormat(LOCALES[lang]),
  price: (fraction: number) =>
    new Intl.NumberFormat(LOCALES[lang], { style: 'currency', currency: 'EGP', minimumFractionDigits: fraction }),
  date: inUtc(
    lang,
    lang === 'ar'
      ? { day: 'numeric', month: 'long', year: 'numeric' }
      : { month: 'short', day: 'numeric', year: 'numeric' },
  ),
  weekday: inUtc(lang, { weekday: 'long' }),
  time: inUtc(lang, { hour: 'numeric', minute: '2-digit', hour12: true }),
  plural: new Intl.PluralRules(LOCALES[lang]),
});
/** With the names of each language's messages, as createI18n gives them. */
const local = (lang: Lang) =>
  localFormats(lang, {
    months: MESSAGES[lang].common.months.split(' '),
    weekdays: MESSAGES[lang].common.weekdays.split(' '),
  });
const en = { local: local('en'), intl: reference('en') };
const ar = { local: local('ar'), intl: reference('ar') };

const pad = (value: number, width: number) => String(value).padStart(width, '0');
/** A 'YYYY-MM-DD' string, impossible days (the 31st of February) and months up to 19 included. */
const dateText = fc
  .tuple(fc.integer({ min: 0, max: 9999 }), fc.integer({ min: 0, max: 19 }), fc.integer({ min: 0, max: 39 }))
  .map(([y, m, d]) => `${pad(y, 4)}-${pad(m, 2)}-${pad(d, 2)}`);
const utc = (date: string) => {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d));
};
const RUNS = { numRuns: 3000 };

describe('formats written out (contracts/i18n/local-formats.ts) give Intl’s text', () => {
  /** Whole numbers, and fractions of one to three digits (what Intl writes without rounding). */
  const numbers = fc.oneof(
    fc.maxSafeInteger(),
    fc.integer({ min: -99_999, max: 99_999 }),
    fc.tuple(fc.integer({ min: -1e12, max: 1e12 }), fc.constantFrom(10, 100, 1000)).map(([units, per]) => units / per),
  );

  it('Arabic numbers: whole numbers, negatives and thousands included, and fractions of up to three digits', () => {
    fc.assert(
      fc.property(numbers, (n) => {
        expect(ar.local.number(n)).toBe(ar.intl.number.format(n));
      }),
      RUNS,
    );
  });

  it('Arabic prices: any amount in whole piasters up to 100 billion pounds, whole pounds or not, negative or not', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: -1e13, max: 1e13 }), fc.integer({ min: -100_000, max: 10_000_000 })),
        (piasters) => {
          const format = ar.intl.price(piasters % 100 === 0 ? 0 : 2);
          expect(ar.local.price(piasters)).toBe(format.format(piasters / 100));
        },
      ),
      RUNS,
    );
    expect(ar.local.price(15000)).toBe('\u200F١٥٠\u00A0ج.م.\u200F');
  });

  it('dates and weekdays in both languages, every year 0–9999, impossible days rolling over as Date.UTC does', () => {
    fc.assert(
      fc.property(dateText, (date) => {
        const at = utc(date);
        for (const { local, intl } of [en, ar]) {
          expect(local.date(date)).toBe(intl.date.format(at));
          expect(local.weekday(date)).toBe(intl.weekday.format(at));
        }
      }),
      RUNS,
    );
    for (const { local } of [en, ar]) {
      expect(local.date('5 Dec')).toBe('5 Dec');
      expect(local.weekday('')).toBe('');
    }
  });

  it('Arabic times of day, every minute, seconds and out-of-range minutes included', () => {
    for (let minute = 0; minute < 24 * 60; minute++) {
      const time = `${pad(Math.floor(minute / 60), 2)}:${pad(minute % 60, 2)}`;
      const at = new Date(Date.UTC(2000, 0, 1, Math.floor(minute / 60), minute % 60));
      expect(ar.local.time(time)).toBe(ar.intl.time.format(at));
      expect(ar.local.time(`${time}:59`)).toBe(ar.intl.time.format(at));
    }
    expect(ar.local.time('23:75')).toBe(ar.intl.time.format(new Date(Date.UTC(2000, 0, 1, 23, 75))));
    expect(ar.local.time('soon')).toBe('soon');
  });

  it('plural forms in both languages: whole numbers, negatives and fractions', () => {
    fc.assert(
      fc.property(fc.oneof(fc.integer({ min: -1000, max: 1_000_000 }), numbers), (n) => {
        expect(en.local.plural(n)).toBe(en.intl.plural.select(n));
        expect(ar.local.plural(n)).toBe(ar.intl.plural.select(n));
      }),
      RUNS,
    );
  });
});
