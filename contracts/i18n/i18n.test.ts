import { describe, expect, it } from 'vitest';
import { addDays, formatDate, weekdayOf } from '../dates';
import { i18nOf } from './all';
import { createI18n } from './i18n';
import { instantIn } from './instant';
import { langFromCookie, negotiateLang } from './languages';
import { messageText, msg } from './text';

const en = i18nOf('en');
const ar = i18nOf('ar');

describe('formats', () => {
  it('write prices in EGP: as today in English, in Arabic digits and the pound sign in Arabic', () => {
    expect(en.price(15000)).toBe('150 EGP');
    expect(en.price(1250)).toBe('12.50 EGP');
    expect(ar.price(15000)).toContain('١٥٠');
    expect(ar.price(15000)).toContain('ج.م.');
    expect(ar.price(1250)).toContain('١٢٫٥٠');
    expect(ar.price(123456)).toContain('١٬٢٣٤٫٥٦');
  });

  it('write dates and weekdays: Dec 5, 2026 / ٥ ديسمبر ٢٠٢٦, whatever the time zone', () => {
    expect(en.date('2026-12-05')).toBe('Dec 5, 2026');
    expect(ar.date('2026-12-05')).toBe('٥ ديسمبر ٢٠٢٦');
    expect(en.weekday('2026-12-05')).toBe('Saturday');
    expect(ar.weekday('2026-12-05')).toBe('السبت');
    expect(ar.weekday('2026-12-04')).toBe('الجمعة');
  });

  it('write English dates and weekdays exactly as the spec’s forms, every day of two years', () => {
    for (let day = 0; day < 731; day++) {
      const date = addDays('2026-01-01', day);
      expect(en.date(date)).toBe(formatDate(date));
      expect(en.weekday(date)).toBe(weekdayOf(date));
    }
    expect(en.date('not a date')).toBe('not a date');
  });

  it('write times on a 12-hour clock: 07:30 PM / ٧:٣٠ م and ص before noon', () => {
    expect(en.time('19:30')).toBe('07:30 PM');
    expect(en.time('00:05:00')).toBe('12:05 AM');
    expect(ar.time('19:30')).toBe('٧:٣٠ م');
    expect(ar.time('09:05:00')).toBe('٩:٠٥ ص');
    expect(ar.time('00:00')).toBe('١٢:٠٠ ص');
  });

  it('write an instant in a named zone', () => {
    expect(instantIn('en', '2026-12-05T17:30:00Z', 'Africa/Cairo')).toBe('Dec 5, 2026, 07:30 PM');
    expect(instantIn('ar', '2026-12-05T17:30:00Z', 'Africa/Cairo')).toContain('٧:٣٠');
  });
});

describe('plurals', () => {
  const i18n = createI18n('ar', {
    tickets: {
      zero: 'لا تذاكر',
      one: 'تذكرة واحدة',
      two: 'تذكرتان',
      few: '{count} تذاكر',
      many: '{count} تذكرة',
      other: '{count} تذكرة',
    },
  });
  const t = (count: number) => i18n.t('tickets' as never, { count });

  it('use all six Arabic forms: 0, 1, 2, 3, 11, 100', () => {
    expect(t(0)).toBe('لا تذاكر');
    expect(t(1)).toBe('تذكرة واحدة');
    expect(t(2)).toBe('تذكرتان');
    expect(t(3)).toBe('٣ تذاكر');
    expect(t(11)).toBe('١١ تذكرة');
    expect(t(100)).toBe('١٠٠ تذكرة');
  });

  it('use one and other in English', () => {
    expect(en.t('catalogue.eventsCount', { count: 1 })).toBe('1 event');
    expect(en.t('catalogue.eventsCount', { count: 0 })).toBe('0 events');
    expect(en.t('catalogue.eventsCount', { count: 11 })).toBe('11 events');
    expect(ar.t('catalogue.eventsCount', { count: 11 })).toBe('١١ فعالية');
  });
});

describe('messages given as data', () => {
  it('translate a key with its values, and leave a plain text as it is', () => {
    expect(messageText(en, msg('catalogue.pageOf', { page: 2, pages: 5 }))).toBe('Page 2 of 5');
    expect(messageText(ar, msg('catalogue.pageOf', { page: 2, pages: 5 }))).toBe('صفحة ٢ من ٥');
    expect(messageText(ar, 'Your card was declined.')).toBe('Your card was declined.');
    expect(messageText(ar, 'no.such.key')).toBe('no.such.key');
  });
});

describe('choosing the language', () => {
  it('follows the cookie, then Accept-Language by quality, and defaults to English', () => {
    expect(langFromCookie('a=1; lang=ar; b=2')).toBe('ar');
    expect(langFromCookie('lang=fr')).toBeUndefined();
    expect(negotiateLang('ar-EG,ar;q=0.9,en;q=0.8')).toBe('ar');
    expect(negotiateLang('fr-FR,en;q=0.5,ar;q=0.4')).toBe('en');
    expect(negotiateLang('fr,de')).toBe('en');
    expect(negotiateLang(undefined)).toBe('en');
    expect(negotiateLang('en-GB;q=0.3, ar-SA;q=0.7')).toBe('ar');
  });
});
