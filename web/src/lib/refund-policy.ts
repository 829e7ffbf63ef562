import type { EventDto } from '../../../contracts/catalogue';
import type { I18n } from '../../../contracts/i18n/i18n';

/**
 * An event's refund policy in plain words (contracts/refunds.ts), for its page and its ticket page: until when
 * a buyer may cancel and what they get back, or that there are no refunds.
 */
export function refundPolicyText(
  { t }: Pick<I18n, 't'>,
  event: Pick<EventDto, 'refundHoursBefore' | 'cancellationFeePercent'>,
): string {
  if (event.refundHoursBefore <= 0) return t('catalogue.noRefunds');
  const hours = t('catalogue.refundHours', { count: event.refundHoursBefore });
  return event.cancellationFeePercent > 0
    ? t('catalogue.refundPolicyWithFee', { hours, fee: event.cancellationFeePercent })
    : t('catalogue.refundPolicy', { hours });
}
