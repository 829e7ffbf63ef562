import { describe, expect, it } from 'vitest';
import { egpToPiasters, eventInputSchema, fieldErrors, piastersToEgpInput } from './admin';
import { i18nOf } from './i18n/all';
import { messageText } from './i18n/text';

const english = i18nOf('en');
const arabic = i18nOf('ar');

describe('EGP and piasters', () => {
  it.each([
    ['150', 15000],
    ['150.5', 15050],
    ['150.05', 15005],
    ['0.01', 1],
    ['.5', 50],
    ['+7', 700],
    [12.25, 1225],
    ['١٥٠٫٥', 15050],
    ['۱۲', 1200],
  ] as const)('reads %s EGP as %i piasters', (egp, piasters) => {
    expect(egpToPiasters(egp)).toBe(piasters);
  });

  it('writes stored piasters back as the form shows them', () => {
    expect(piastersToEgpInput(15050)).toBe('150.5');
    expect(piastersToEgpInput(15000)).toBe('150');
    expect(piastersToEgpInput(1)).toBe('0.01');
  });
});

describe('eventInputSchema', () => {
  const base = {
    title: 'T',
    host: 'H',
    location: 'L',
    price: '1',
    tickets: '1',
    startDate: '2026-06-10',
    endDate: '2026-06-10',
    eventDate: '2026-06-10',
    startTime: '00:00',
    endTime: '23:59',
    description: 'D',
    imageUrl: '/uploads/eventImg/0b7c2d9e-1111-4222-8333-444455556666.webp',
  };
  /** The form `base` with `change`, read as on `today`. */
  const parse = (change: Record<string, unknown>, today = '2026-06-10') =>
    eventInputSchema(today).safeParse({ ...base, ...change });
  /** The first message of each field the form shows for `base` with `change` ({} when valid), in `i18n`'s language. */
  const errorsOf = (change: Record<string, unknown>, today?: string, i18n = english) =>
    Object.fromEntries(
      Object.entries(fieldErrors(parse(change, today).error?.issues ?? [])).map(([field, message]) => [
        field,
        messageText(i18n, message),
      ]),
    );

  it('reports the date order rules even while other fields are still empty', () => {
    expect(errorsOf({ title: '', endDate: '2026-06-09', eventDate: '2026-06-08' }, '2026-06-01')).toEqual({
      title: 'Title is required',
      endDate: 'End date must be the same as or after start date',
      eventDate: 'Event date must be the same as or after end date',
    });
  });

  it('cleans its texts: no control or bidi override characters, invisible characters alone count as empty', () => {
    const result = parse({
      title: '\u200bJazz \u202eNight\u202c\u00a0',
      host: 'Cairo\u0000Club',
      description: 'Line one\r\nLine two\u0007\tend',
    });
    expect(result.success && [result.data.title, result.data.host, result.data.description]).toEqual([
      'Jazz  Night',
      'Cairo Club',
      'Line one\nLine two\tend',
    ]);
    expect(errorsOf({ title: '\u200b', location: ' \ufeff ' })).toEqual({
      title: 'Title is required',
      location: 'Location is required',
    });
  });

  it('depends on the given today only', () => {
    expect(eventInputSchema('2026-06-10').safeParse(base).success).toBe(true);
    expect(eventInputSchema('2026-06-11').safeParse(base).success).toBe(false);
    expect(eventInputSchema('2026-06-11', { currentStartDate: '2026-06-10' }).safeParse(base).success).toBe(true);
  });

  it.each([
    ['9:30', '09:30'],
    ['0:05', '00:05'],
    ['09:30', '09:30'],
    ['23:59', '23:59'],
  ])('takes the 24-hour time %s (hours 0-23, minutes 00-59) as %s', (typed, stored) => {
    const result = parse({ startTime: typed, endTime: typed });
    expect(result.success && [result.data.startTime, result.data.endTime]).toEqual([stored, stored]);
  });

  it('gives its messages as keys: the same rule says it in English and in Arabic', () => {
    expect(fieldErrors(parse({ title: '' }).error?.issues ?? [])).toEqual({ title: 'eventForm.titleRequired' });
    expect(errorsOf({ title: 'x'.repeat(121), price: '0' })).toEqual({
      title: 'Must be at most 120 characters',
      price: 'Price must be greater than 0',
    });
    expect(errorsOf({ title: 'x'.repeat(121), price: '0' }, undefined, arabic)).toEqual({
      title: 'يجب ألا يتجاوز عدد الأحرف ١٢٠',
      price: 'يجب أن يكون السعر أكبر من صفر',
    });
  });

  it('reads digits typed on an Arabic keyboard', () => {
    const result = parse({ price: '١٧٥٫٥', tickets: '٤٠', startTime: '٩:٣٠', endTime: '۲۳:۰۰' });
    expect(result.success && [result.data.pricePiasters, result.data.capacity]).toEqual([17550, 40]);
    expect(result.success && [result.data.startTime, result.data.endTime]).toEqual(['09:30', '23:00']);
  });

  it.each(['24:00', '9:60', '9:5', '123:00', '-1:30', ' : '])('refuses the time %j', (typed) => {
    expect(errorsOf({ startTime: typed })).toEqual({ startTime: 'Invalid start time format' });
  });
});
