import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function ContactRoute() {
  useDocumentMeta('Contact Us');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Contact Us</h1>
    </PageContainer>
  );
}
