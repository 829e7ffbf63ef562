import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function LoginRoute() {
  useDocumentMeta('Sign in to your account');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Sign in to your account</h1>
    </PageContainer>
  );
}
