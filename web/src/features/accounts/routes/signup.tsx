import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function SignupRoute() {
  useDocumentMeta('Create a new account');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Create a new account</h1>
    </PageContainer>
  );
}
