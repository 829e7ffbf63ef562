import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function PaymentFailedRoute() {
  useDocumentMeta('Something Went Wrong');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Something Went Wrong</h1>
    </PageContainer>
  );
}
