import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function AdminEventFormRoute() {
  useDocumentMeta('Create Event');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Create Event</h1>
    </PageContainer>
  );
}
