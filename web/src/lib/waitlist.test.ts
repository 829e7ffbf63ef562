import { describe, expect, it } from 'vitest';
import { i18nOf } from '../../../contracts/i18n/all';
import { ApiError } from './api-client';
import { offerText, waitlistProblemText, wantedText } from './waitlist';

const en = i18nOf('en');
const ar = i18nOf('ar');

describe('waitlistProblemText', () => {
  it('says each refusal of the waitlist API by its code, in the page’s language', () => {
    const refusal = (code: string) => new ApiError(409, code, 'words of the server');
    expect(waitlistProblemText(refusal('TICKETS_AVAILABLE'), en)).toBe(
      'Tickets are available: reserve them instead of joining the waitlist.',
    );
    expect(waitlistProblemText(refusal('HOLDING_TICKETS'), ar)).toBe(ar.t('waitlist.holdingTickets'));
    expect(waitlistProblemText(new ApiError(404, 'NO_OFFER', ''), en)).toBe('There is no offer of tickets to decline.');
  });

  it('gives any other refusal as the server said it, and a failure of the server or the network as a failure', () => {
    expect(waitlistProblemText(new ApiError(400, 'VALIDATION_FAILED', 'Choose from 1 to 10 tickets'), en)).toBe(
      'Choose from 1 to 10 tickets',
    );
    expect(waitlistProblemText(new ApiError(500, 'INTERNAL', 'Internal Server Error'), en)).toBe(
      'Something went wrong, try again later',
    );
    expect(waitlistProblemText(new ApiError(0, 'NETWORK', 'offline'), en)).toBe(
      'Something went wrong, try again later',
    );
    expect(waitlistProblemText(new Error('boom'), en)).toBe('Something went wrong, try again later');
  });
});

describe('wantedText', () => {
  it('counts the tickets asked for, and says when fewer would do', () => {
    expect(wantedText(en, { quantity: 1, acceptFewer: true })).toBe('You asked for 1 ticket.');
    expect(wantedText(en, { quantity: 3, acceptFewer: false })).toBe('You asked for 3 tickets.');
    expect(wantedText(en, { quantity: 3, acceptFewer: true })).toBe('You asked for 3 tickets, or fewer.');
  });

  it("uses Arabic's plural forms and digits", () => {
    expect(wantedText(ar, { quantity: 2, acceptFewer: false })).toBe('طلبت تذكرتين.');
    expect(wantedText(ar, { quantity: 4, acceptFewer: true })).toBe('طلبت ٤ تذاكر أو أقل.');
    expect(wantedText(ar, { quantity: 10, acceptFewer: false })).toBe('طلبت ١٠ تذاكر.');
  });
});

describe('offerText', () => {
  const offer = { bookingId: '00000000-0000-4000-8000-000000000000', quantity: 2, expiresAt: '2026-12-05T17:30:00Z' };

  it('says until when the tickets are held, on the app’s wall clock', () => {
    expect(offerText(en, offer, 'Africa/Cairo')).toBe('2 tickets are held for you until 07:30 PM on Dec 5, 2026.');
    expect(offerText(en, { ...offer, quantity: 1 }, 'UTC')).toBe(
      '1 ticket is held for you until 05:30 PM on Dec 5, 2026.',
    );
  });

  it('says it in Arabic with its forms of two', () => {
    expect(offerText(ar, offer, 'Africa/Cairo')).toMatch(/^تذكرتان محجوزتان لك حتى الساعة .+ يوم ٥ ديسمبر ٢٠٢٦\.$/);
  });
});
