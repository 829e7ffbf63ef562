import { describe, expect, it } from 'vitest';
import { calendarUtc, eventInstants, googleCalendarUrl, zonedInstant } from './calendar';

const at = (date: string, time: string, zone: string) => zonedInstant(date, time, zone).toISOString();

describe('zonedInstant', () => {
  it('reads Cairo wall-clock times with the offset of their day (UTC+2 in winter, +3 in summer)', () => {
    expect(at('2026-04-23', '23:59', 'Africa/Cairo')).toBe('2026-04-23T21:59:00.000Z');
    expect(at('2026-04-24', '01:00', 'Africa/Cairo')).toBe('2026-04-23T22:00:00.000Z');
    expect(at('2026-10-30', '00:00', 'Africa/Cairo')).toBe('2026-10-29T22:00:00.000Z');
  });

  it('takes the first of a time that happens twice, and reads a skipped time with the offset from before', () => {
    // Cairo's clocks go back from 24:00 to 23:00 on the last Thursday of October: 23:30 happens twice.
    expect(at('2026-10-29', '23:30', 'Africa/Cairo')).toBe('2026-10-29T20:30:00.000Z');
    // They jump from 00:00 to 01:00 on the last Friday of April: 00:30 never shows; it is read as 01:30.
    expect(at('2026-04-24', '00:30', 'Africa/Cairo')).toBe('2026-04-23T22:30:00.000Z');
    expect(at('2026-11-01', '01:30', 'America/New_York')).toBe('2026-11-01T05:30:00.000Z');
    expect(at('2026-03-08', '02:30', 'America/New_York')).toBe('2026-03-08T07:30:00.000Z');
  });

  it('works in a zone without DST and in UTC', () => {
    expect(at('2026-06-01', '09:15', 'Asia/Tokyo')).toBe('2026-06-01T00:15:00.000Z');
    expect(at('2026-06-01', '09:15:30', 'UTC')).toBe('2026-06-01T09:15:30.000Z');
  });
});

describe('eventInstants', () => {
  it('puts an end time earlier than the start on the next day', () => {
    const { start, end } = eventInstants(
      { eventDate: '2026-12-31', startTime: '22:00', endTime: '01:30' },
      'Africa/Cairo',
    );
    expect([start.toISOString(), end.toISOString()]).toEqual(['2026-12-31T20:00:00.000Z', '2026-12-31T23:30:00.000Z']);
  });
});

describe('googleCalendarUrl', () => {
  it('links to a new Google Calendar event with the UTC dates and the details encoded', () => {
    const url = new URL(
      googleCalendarUrl({
        title: 'Jazz & Co',
        start: new Date('2026-12-05T17:30:00Z'),
        end: new Date('2026-12-05T20:00:00Z'),
        details: 'https://eventry.example/event-details/1',
        location: 'Cairo, Zamalek',
      }),
    );
    expect(url.origin + url.pathname).toBe('https://calendar.google.com/calendar/render');
    expect(Object.fromEntries(url.searchParams)).toEqual({
      action: 'TEMPLATE',
      text: 'Jazz & Co',
      dates: '20261205T173000Z/20261205T200000Z',
      details: 'https://eventry.example/event-details/1',
      location: 'Cairo, Zamalek',
    });
    expect(calendarUtc(new Date('2027-01-01T00:00:00.999Z'))).toBe('20270101T000000Z');
  });
});
