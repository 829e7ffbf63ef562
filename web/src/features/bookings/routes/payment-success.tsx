import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function PaymentSuccessRoute() {
  useDocumentMeta('Payment Successful');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Payment Successful</h1>
    </PageContainer>
  );
}
