import { useSearchParams } from 'react-router';
import { isUuid } from '../../../../../contracts/ids';
import { paymentMessages } from '../../../../../contracts/messages/payment';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { PaymentOutcome } from '../components/payment-outcome';

/** Payment failure: reached when the payment configuration cannot be loaded (?event=ID). */
export function PaymentFailedRoute() {
  const [params] = useSearchParams();
  const eventId = params.get('event') ?? '';
  useDocumentMeta(paymentMessages.failureTitle);
  return (
    <PageContainer>
      <PaymentOutcome outcome="failure" eventId={isUuid(eventId) ? eventId : undefined} />
    </PageContainer>
  );
}
