import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function EventDetailsRoute() {
  useDocumentMeta('Event details');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Event details</h1>
    </PageContainer>
  );
}
