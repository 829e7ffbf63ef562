import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function PaymentRoute() {
  useDocumentMeta('Payment');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Payment</h1>
    </PageContainer>
  );
}
