import { useSearchParams } from 'react-router';
import { isUuid } from '../../../../../contracts/ids';
import { PageContainer, useDocumentMeta } from '../../../components/ui/page';
import { useI18n } from '../../../lib/i18n';
import { PaymentOutcome } from '../components/payment-outcome';

/** Payment failure: reached when the payment configuration cannot be loaded (?event=ID). */
export function PaymentFailedRoute() {
  const { t } = useI18n();
  const [params] = useSearchParams();
  const eventId = params.get('event') ?? '';
  useDocumentMeta(t('payment.failureTitle'));
  return (
    <PageContainer>
      <PaymentOutcome outcome="failure" eventId={isUuid(eventId) ? eventId : undefined} />
    </PageContainer>
  );
}
