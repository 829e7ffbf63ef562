import { describe, expect, it } from 'vitest';
import { i18nOf } from '../../../contracts/i18n/all';
import { refundPolicyText } from './refund-policy';

describe('refundPolicyText', () => {
  const en = i18nOf('en');
  const ar = i18nOf('ar');

  it('says until when a buyer may cancel, and the fee kept when there is one', () => {
    expect(refundPolicyText(en, { refundHoursBefore: 48, cancellationFeePercent: 10 })).toBe(
      'Refunds: cancel up to 48 hours before the start and get your money back, less a 10% fee.',
    );
    expect(refundPolicyText(en, { refundHoursBefore: 1, cancellationFeePercent: 0 })).toBe(
      'Refunds: cancel up to 1 hour before the start and get your money back in full.',
    );
  });

  it('says there are no refunds when the policy gives none, whatever the fee', () => {
    expect(refundPolicyText(en, { refundHoursBefore: 0, cancellationFeePercent: 25 })).toBe(
      'No refunds for this event.',
    );
  });

  it("counts the hours in Arabic's plural forms and digits", () => {
    expect(refundPolicyText(ar, { refundHoursBefore: 2, cancellationFeePercent: 0 })).toContain('حتى ساعتين قبل');
    expect(refundPolicyText(ar, { refundHoursBefore: 48, cancellationFeePercent: 10 })).toContain('حتى ٤٨ ساعة قبل');
    expect(refundPolicyText(ar, { refundHoursBefore: 48, cancellationFeePercent: 10 })).toContain('١٠٪');
  });
});
