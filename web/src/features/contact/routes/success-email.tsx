import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function SuccessEmailRoute() {
  useDocumentMeta('Message Successful');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Message Successful</h1>
    </PageContainer>
  );
}
