import { PageContainer, useDocumentMeta } from '../../../components/ui/page';

export function EditProfileRoute() {
  useDocumentMeta('Edit Profile');
  return (
    <PageContainer>
      <h1 className="text-3xl font-bold">Edit Profile</h1>
    </PageContainer>
  );
}
