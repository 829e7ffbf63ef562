import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function ProfileRoute() {
  useDocumentMeta('Your Tickets');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Your Tickets</h1>
    </PageContainer>
  );
}
