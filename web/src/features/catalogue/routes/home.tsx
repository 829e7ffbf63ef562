import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function HomeRoute() {
  useDocumentMeta('Home');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Home</h1>
    </PageContainer>
  );
}
