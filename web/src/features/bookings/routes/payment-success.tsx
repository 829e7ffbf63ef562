import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isUuid } from '../../../../../contracts/ids';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { Spinner } from '../../../components/ui/spinner';
import { useI18n } from '../../../lib/i18n';
import { useBooking } from '../api/get-booking';
import { getMyBookingsQueryOptions } from '../api/get-my-bookings';
import { PaymentOutcome } from '../components/payment-outcome';

/** How long the page waits for a pending payment to settle (webhook or the server asking Stripe). */
const SETTLE_WAIT_MS = 15_000;

/**
 * Payment success. Shows success only for a PAID booking of the signed-in user, as the server
 * says; a forged or foreign ?booking=, or a payment that did not go through, shows the failure content.
 */
export function PaymentSuccessRoute() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const bookingId = params.get('booking') ?? '';
  const valid = isUuid(bookingId);
  // Stripe appends redirect_status to the return URL: 'failed' means no payment is coming, so nothing to wait for.
  const stripeFailed = params.get('redirect_status') === 'failed';
  // Each poll asks the server to bring the payment up to date: it settles a payment the provider took before
  // its webhook came.
  const booking = useBooking(bookingId, { pollWhilePending: !stripeFailed, enabled: valid, syncPayment: true });
  const [waited, setWaited] = useState(false);
  const queryClient = useQueryClient();
  const status = booking.data?.status;
  const paid = status === 'paid';

  useEffect(() => {
    const timer = setTimeout(() => setWaited(true), SETTLE_WAIT_MS);
    return () => clearTimeout(timer);
  }, []);
  useEffect(() => {
    if (paid) void queryClient.invalidateQueries({ queryKey: getMyBookingsQueryOptions().queryKey });
  }, [paid, queryClient]);

  const settling =
    valid && !stripeFailed && !booking.isError && (booking.isPending || (status === 'pending' && !waited));
  useDocumentMeta(settling ? t('payment.processing') : paid ? t('payment.successTitle') : t('payment.failureTitle'));
  if (settling) {
    return (
      <PageContainer className="flex min-h-[50vh] items-center justify-center">
        <p role="status" className="flex items-center gap-3 text-fg-muted">
          <Spinner label={null} /> {t('payment.processing')}
        </p>
      </PageContainer>
    );
  }
  return (
    <PageContainer>
      <PaymentOutcome outcome={paid ? 'success' : 'failure'} eventId={booking.data?.event.id} />
    </PageContainer>
  );
}
