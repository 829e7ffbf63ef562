import { describe, expect, it } from 'vitest';
import { i18nOf } from '../../../contracts/i18n/all';
import { refundPolicyText } from './refund-policy';

/** An event whose refunds close on 2027-01-18 at 17:30 UTC, asked a minute before. */
const UNTIL = '2027-01-18T17:30:00.000Z';
const BEFORE = Date.parse(UNTIL) - 60_000;

describe('refundPolicyText', () => {
  const en = i18nOf('en');
  const ar = i18nOf('ar');

  it('says until when a buyer may cancel, and the fee kept when there is one', () => {
    expect(
      refundPolicyText(en, { refundHoursBefore: 48, cancellationFeePercent: 10, refundsUntil: UNTIL }, BEFORE),
    ).toBe('Refunds: cancel up to 48 hours before the start and get your money back, less a 10% fee.');
    expect(refundPolicyText(en, { refundHoursBefore: 1, cancellationFeePercent: 0, refundsUntil: UNTIL }, BEFORE)).toBe(
      'Refunds: cancel up to 1 hour before the start and get your money back in full.',
    );
  });

  it('says there are no refunds when the policy gives none, whatever the fee', () => {
    expect(refundPolicyText(en, { refundHoursBefore: 0, cancellationFeePercent: 25, refundsUntil: null }, BEFORE)).toBe(
      'No refunds for this event.',
    );
  });

  it("counts the hours in Arabic's plural forms and digits", () => {
    expect(
      refundPolicyText(ar, { refundHoursBefore: 2, cancellationFeePercent: 0, refundsUntil: UNTIL }, BEFORE),
    ).toContain('حتى ساعتين قبل');
    expect(
      refundPolicyText(ar, { refundHoursBefore: 48, cancellationFeePercent: 10, refundsUntil: UNTIL }, BEFORE),
    ).toContain('حتى ٤٨ ساعة قبل');
    expect(
      refundPolicyText(ar, { refundHoursBefore: 48, cancellationFeePercent: 10, refundsUntil: UNTIL }, BEFORE),
    ).toContain('١٠٪');
  });

  it('says the time to cancel has passed from the last instant on, in both languages', () => {
    const event = { refundHoursBefore: 48, cancellationFeePercent: 10, refundsUntil: UNTIL };
    expect(refundPolicyText(en, event, Date.parse(UNTIL) - 1)).toContain('cancel up to 48 hours');
    expect(refundPolicyText(en, event, Date.parse(UNTIL))).toBe(
      'Refunds: the time to cancel before the start has passed, so tickets can no longer be refunded.',
    );
    expect(refundPolicyText(ar, event, Date.parse(UNTIL) + 3_600_000)).toBe(
      'الاسترداد: انتهت مهلة الإلغاء قبل بدء الفعالية، فلم يعد استرداد قيمة التذاكر ممكنًا.',
    );
  });
});
