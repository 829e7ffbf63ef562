import { describe, expect, it } from 'vitest';
import type { Dashboard } from '../../../../../../contracts/dashboard';
import { i18nOf } from '../../../../../../contracts/i18n/all';
import { chartFormats } from '../charts/chart-formats';
import { arrivalsModel, funnelModel, methodsModel, revenueModel, salesModel } from './chart-data';

const day = (date: string, ticketsSold: number, grossPiasters: number, refundedPiasters = 0) => ({
  day: date,
  ticketsSold,
  ticketsRefunded: refundedPiasters > 0 ? 1 : 0,
  grossPiasters,
  refundedPiasters,
  checkedIn: 0,
});

const base: Dashboard = {
  from: '2026-11-18',
  to: '2026-11-20',
  timeZone: 'Africa/Cairo',
  event: null,
  ticketsSold: 120,
  ticketsRefunded: 1,
  grossPiasters: 1_800_000,
  refundedPiasters: 15_000,
  netPiasters: 1_785_000,
  checkedIn: 0,
  capacity: 600,
  ticketsValid: 119,
  checkedInTotal: 0,
  waitlist: 0,
  byDay: [day('2026-11-18', 40, 600_000), day('2026-11-19', 0, 0, 15_000), day('2026-11-20', 80, 1_200_000)],
  byHour: [],
  byMethod: [
    { method: 'simulated', bookings: 3, grossPiasters: 45_000 },
    { method: 'paymob-wallet', bookings: 12, grossPiasters: 1_755_000 },
    { method: 'stripe', bookings: 0, grossPiasters: 0 },
  ],
  funnel: { views: 400, reservations: 30, paid: 15 },
  events: [],
  arrivals: null,
};

const en = i18nOf('en');
const ar = i18nOf('ar');

describe('the dashboard charts’ texts', () => {
  it('sums up the tickets sold per day, the best day and the capacity, and tables the running total', () => {
    const sales = salesModel(en, chartFormats(en), base);
    expect(sales.summary).toBe(
      'Tickets sold per day from Nov 18, 2026 to Nov 20, 2026: 120 in total, most on Nov 20, 2026 (80). Capacity: 600 tickets.',
    );
    expect(sales.labels).toEqual(['Nov 18', 'Nov 19', 'Nov 20']);
    expect(sales.total).toEqual([40, 40, 120]);
    expect(sales.table.columns).toEqual(['Day', 'Tickets sold', 'Tickets refunded', 'Sold so far']);
    expect(sales.table.rows[2]).toEqual(['Nov 20, 2026', '80', '0', '120']);
  });

  it('goes per hour on a one-day range', () => {
    const oneDay: Dashboard = {
      ...base,
      from: '2026-11-20',
      to: '2026-11-20',
      capacity: 0,
      byDay: [day('2026-11-20', 5, 75_000)],
      byHour: [
        { hour: '2026-11-20T09', ticketsSold: 1, grossPiasters: 15_000 },
        { hour: '2026-11-20T19', ticketsSold: 4, grossPiasters: 60_000 },
      ],
    };
    const sales = salesModel(en, chartFormats(en), oneDay);
    expect(sales.hourly).toBe(true);
    expect(sales.labels).toEqual(['9 AM', '7 PM']);
    expect(sales.summary).toBe('Tickets sold per hour on Nov 20, 2026: 5 in total, most at 07:00 PM (4).');
    expect(sales.table.rows[1]).toEqual(['07:00 PM', '4', '5']);
  });

  it('says when nothing was sold', () => {
    const none = { ...base, capacity: 0, byDay: [day('2026-11-18', 0, 0)] };
    expect(salesModel(en, chartFormats(en), none).summary).toBe(
      'Tickets sold from Nov 18, 2026 to Nov 20, 2026: none.',
    );
  });

  it('writes Arabic with Arabic digits and the plural a count takes', () => {
    const sales = salesModel(ar, chartFormats(ar), base);
    expect(sales.summary).toContain('١٢٠ إجمالًا');
    expect(sales.summary).toContain('السعة: ٦٠٠ تذكرة.');
    expect(salesModel(ar, chartFormats(ar), { ...base, capacity: 5 }).summary).toContain('السعة: ٥ تذاكر.');
    expect(sales.labels[2]).toBe('٢٠ نوفمبر');
  });

  it('sums up the revenue in EGP, gross, refunded and net, a net below zero included', () => {
    const revenue = revenueModel(en, chartFormats(en), base);
    expect(revenue.summary).toBe(
      'Revenue from Nov 18, 2026 to Nov 20, 2026: 18000 EGP gross, 150 EGP refunded, 17850 EGP net.',
    );
    expect(revenue.net).toEqual([6000, -150, 12000]);
    expect(revenue.table.rows[1]).toEqual(['Nov 19, 2026', '0 EGP', '150 EGP', '-150 EGP']);
  });

  it('lists the payment methods used, most used first, by their names', () => {
    const methods = methodsModel(en, chartFormats(en), base);
    expect(methods.rows.map((row) => row.label)).toEqual(['Mobile wallet', 'Test card']);
    expect(methods.summary).toBe('Paid bookings by payment method: Mobile wallet: 12 and Test card: 3.');
    expect(methods.table.rows[0]).toEqual(['Mobile wallet', '12', '17550 EGP']);
    expect(methods.rows[1]?.text).toBe('3 bookings, 450 EGP');
    expect(methodsModel(ar, chartFormats(ar), base).rows[1]?.text).toMatch(/^٣ حجوزات، \S*٤٥٠\sج\.م\./);
    expect(methodsModel(en, chartFormats(en), { ...base, byMethod: [] }).summary).toBe(
      'No bookings were paid in this range.',
    );
  });

  it('gives the funnel’s steps as shares of the page views', () => {
    const funnel = funnelModel(en, chartFormats(en), base);
    expect(funnel.summary).toBe('Event page views: 400; reservations: 30; paid bookings: 15 (4% of views).');
    expect(funnel.rows.map((row) => row.text)).toEqual(['400 (100%)', '30 (8%)', '15 (4%)']);
    const noViews = funnelModel(en, chartFormats(en), { ...base, funnel: { views: 0, reservations: 2, paid: 1 } });
    expect(noViews.table.rows[2]).toEqual(['Paid bookings', '1', '—']);
  });

  it('sums up the arrivals of an event’s day, and has none on the all-events dashboard', () => {
    expect(arrivalsModel(en, chartFormats(en), base)).toBeNull();
    const arrivals = arrivalsModel(en, chartFormats(en), {
      ...base,
      arrivals: {
        day: '2026-11-20',
        buckets: [
          { at: '18:45', checkedIn: 3, running: 3 },
          { at: '19:00', checkedIn: 9, running: 12 },
          { at: '19:15', checkedIn: 2, running: 14 },
        ],
      },
    });
    expect(arrivals?.summary).toBe(
      'Arrivals on Nov 20, 2026: 14 people checked in from 06:45 PM to 07:15 PM, most at 07:00 PM (9).',
    );
    expect(arrivals?.running).toEqual([3, 12, 14]);
    expect(arrivals?.valid).toBe(119);
  });
});
