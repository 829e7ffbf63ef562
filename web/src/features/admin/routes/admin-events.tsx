import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function AdminEventsRoute() {
  useDocumentMeta('Event List');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Event List</h1>
    </PageContainer>
  );
}
