import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function GetTicketRoute() {
  useDocumentMeta('Get a ticket');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Get a ticket</h1>
    </PageContainer>
  );
}
