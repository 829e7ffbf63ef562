import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function EventsPageRoute() {
  useDocumentMeta('Events');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Events</h1>
    </PageContainer>
  );
}
