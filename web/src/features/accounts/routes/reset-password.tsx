import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function ResetPasswordRoute() {
  useDocumentMeta('Choose a new password');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Choose a new password</h1>
    </PageContainer>
  );
}
