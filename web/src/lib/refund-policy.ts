import type { EventDto } from '../../../contracts/catalogue';
import type { I18n } from '../../../contracts/i18n/i18n';

/**
 * An event's refund policy in plain words (contracts/refunds.ts), for its page and its ticket page: until when
 * a buyer may cancel and what they get back, that there are no refunds, or, from `refundsUntil` on (`now` is
 * the server's clock, lib/server-clock.ts), that the time to cancel has passed: tickets bought then are final.
 */
export function refundPolicyText(
  { t }: Pick<I18n, 't'>,
  event: Pick<EventDto, 'refundHoursBefore' | 'cancellationFeePercent' | 'refundsUntil'>,
  now: number,
): string {
  if (event.refundHoursBefore <= 0 || event.refundsUntil === null) return t('catalogue.noRefunds');
  if (now >= Date.parse(event.refundsUntil)) return t('catalogue.refundsClosed');
  const hours = t('catalogue.refundHours', { count: event.refundHoursBefore });
  return event.cancellationFeePercent > 0
    ? t('catalogue.refundPolicyWithFee', { hours, fee: event.cancellationFeePercent })
    : t('catalogue.refundPolicy', { hours });
}
