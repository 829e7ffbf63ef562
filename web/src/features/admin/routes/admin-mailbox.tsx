import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function AdminMailboxRoute() {
  useDocumentMeta('Mailbox');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Mailbox</h1>
    </PageContainer>
  );
}
