import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function ForgotPassRoute() {
  useDocumentMeta('Reset Password');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Reset Password</h1>
    </PageContainer>
  );
}
